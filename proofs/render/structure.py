"""Block-structured statements in text and LaTeX: diag(R(kω_0), …, R(kω_{n−1})), never entry by entry.

The objects are proofs.engine.blocks': each names its block i by a Label, so a statement about
a 65536-dimensional vector prints as a few blocks and an ellipsis, at the cost of a few.
"""

from __future__ import annotations

from proofs.engine.blocks import (
    BlockEquation,
    BlockMatrix,
    BlockSum,
    BlockVector,
    Inner,
    Label,
    Permutation,
    Permuted,
    Product,
    consecutive,
)

STRUCTURED = (
    BlockEquation,
    BlockMatrix,
    BlockVector,
    BlockSum,
    Inner,
    Permutation,
    Permuted,
    Product,
)
# Up to this many blocks are listed in full; beyond, the first two, an ellipsis and the last.
SHOWN_BLOCKS = 3


def is_structured(obj: object) -> bool:
    """True for the block-structured objects this module prints."""
    return isinstance(obj, STRUCTURED)


def _indices(count: int) -> list[int | None]:
    """The block indices shown, None standing for the ellipsis."""
    if count <= SHOWN_BLOCKS:
        return list(range(count))
    return [0, 1, None, count - 1]


def _names(label: Label, count: int, latex: bool) -> list[str]:
    dots = r"\dots" if latex else "…"
    return [dots if i is None else label.at(i)[latex] for i in _indices(count)]


def _supports_note(supports: tuple[tuple[int, ...], ...], size: int, latex: bool) -> str:
    """'' for the usual pairs (2i, 2i+1); else where the blocks sit, e.g. 'on (0, 4), (1, 5), …'."""
    if supports == consecutive(size, len(supports[0]) if supports else 2):
        return ""
    shown = [
        (r"\dots" if latex else "…") if i is None else str(supports[i])
        for i in _indices(len(supports))
    ]
    word = r"\text{ on components }" if latex else " on components "
    return word + ", ".join(shown)


def structure_text(obj: object) -> str:
    """obj on one line of Unicode text."""
    return _render(obj, latex=False)


def structure_latex(obj: object) -> str:
    """obj as LaTeX math."""
    return _render(obj, latex=True)


def structure_latex_lines(obj: object) -> list[str]:
    """obj as LaTeX math lines: an equation's right side on a line of its own ("\\quad {} = ...")."""
    if isinstance(obj, BlockEquation):
        whole = structure_latex(obj)
        left = _render(obj.lhs, True, False) if _same_notes(obj) else _render(obj.lhs, True)
        return [left, r"\quad {} = " + whole[len(left) + 3 :]]
    return [structure_latex(obj)]


def _same_notes(equation: BlockEquation) -> bool:
    return _note(equation.lhs, True) == _note(equation.rhs, True)


def _note(obj: object, latex: bool) -> str:
    """Where obj's blocks sit when not on the usual pairs ('' otherwise, or if not a block object)."""
    if isinstance(obj, Product):
        return _note(obj.factors[-1], latex)
    if isinstance(obj, BlockMatrix | BlockVector):
        return _supports_note(obj.supports, obj.size, latex)
    return ""


def _render(obj: object, latex: bool, note: bool = True) -> str:
    """obj printed; note=False leaves out where its blocks sit (said once for a whole product)."""
    if isinstance(obj, BlockEquation):
        left, right = _note(obj.lhs, latex), _note(obj.rhs, latex)
        if left == right:
            body = f"{_render(obj.lhs, latex, False)} = {_render(obj.rhs, latex, False)}"
            return body + ("," if left else "") + left
        return f"{_render(obj.lhs, latex)} = {_render(obj.rhs, latex)}"
    if isinstance(obj, Product):
        joined = (r" \cdot " if latex else "·").join(_render(f, latex, False) for f in obj.factors)
        return joined + (_note(obj, latex) if note else "")
    if isinstance(obj, Inner):
        left, right = _render(obj.left, latex), _render(obj.right, latex)
        if latex:
            return rf"\left\langle {left},\ {right} \right\rangle"
        return f"⟨{left}, {right}⟩"
    if isinstance(obj, Permutation):
        return obj.name
    if isinstance(obj, Permuted):
        inner = _render(obj.inner, latex)
        name = obj.permutation.name
        if isinstance(obj.inner, BlockMatrix):
            return (
                rf"{name} \cdot {inner} \cdot {name}^{{T}}" if latex else f"{name}·{inner}·{name}ᵀ"
            )
        return rf"{name} \cdot {inner}" if latex else f"{name}·{inner}"
    if isinstance(obj, BlockSum):
        names = _names(obj.label, len(obj.terms), latex)
        if len(names) > 1 and any(op in obj.label.text for op in (" + ", " − ")):
            left, right = (r"\left(", r"\right)") if latex else ("(", ")")
            names = [n if n in ("…", r"\dots") else f"{left}{n}{right}" for n in names]
        return " + ".join(names)
    if isinstance(obj, BlockMatrix | BlockVector):
        items = obj.blocks if isinstance(obj, BlockMatrix) else obj.pieces
        names = _names(obj.label, len(items), latex)
        note = _note(obj, latex) if note else ""
        if isinstance(obj, BlockMatrix):
            if latex:
                return rf"\operatorname{{diag}}\left({', '.join(names)}\right){note}"
            return f"diag({', '.join(names)}){note}"
        if latex:
            rows = r" \\ ".join(r"\vdots" if n == r"\dots" else n for n in names)
            return rf"\left[\begin{{matrix}}{rows}\end{{matrix}}\right]{note}"
        return f"[{'; '.join(names)}]{note}"
    raise TypeError(f"cannot print {type(obj).__name__} by structure")
