"""Block-structured matrices, vectors and sums at a concrete size, stored by blocks, never densely.

A BlockMatrix is block-diagonal in some ordering of the coordinates: block b acts on the
components support[b] (an ordered tuple of indices) and every entry outside the blocks is 0.
A BlockVector holds piece b on the components support[b]. Products, transposes and inner
products of objects sharing one partition are again block-wise, so block b of a whole-vector
statement is a 2×2 (or 2×1, 1×1) statement that a lemma can be instantiated at.
The blocks are a tuple, or a Family: block b is one template with the index set to b (and
other symbols to fixed values), which costs nothing however many blocks there are.
Each object carries a Label: how block i is named when printed (e.g. "R(kω_{i})").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sympy as sp

from proofs.engine.citation import substitute


@dataclass(frozen=True)
class Label:
    """How block i is written: text and LaTeX templates in which "{i}" stands for the index."""

    text: str
    latex: str

    def at(self, i: int | str) -> tuple[str, str]:
        """The (text, LaTeX) names of block i."""
        return self.text.replace("{i}", str(i)), self.latex.replace("{i}", str(i))


@dataclass(frozen=True)
class Family:
    """count blocks, block b being template with index = b and fixed applied: a lazy sequence."""

    template: sp.Basic
    index: sp.Symbol
    count: int
    fixed: tuple[tuple[sp.Symbol, sp.Expr], ...] = ()

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, b: int) -> sp.Basic:
        if not 0 <= b < self.count:
            raise IndexError(b)
        return self.template.xreplace({self.index: sp.Integer(b), **dict(self.fixed)})

    def __iter__(self):
        return (self[b] for b in range(self.count))

    @property
    def shape(self) -> tuple[int, int]:
        return self.template.shape

    @property
    def at_size(self) -> sp.Basic:
        """The template with the fixed values in, the index still free; nothing re-evaluated, so
        an entry kept as written (cos(−kω_i)) stays so."""
        return (
            substitute(self.template, dict(self.fixed), arithmetic=True)
            if self.fixed
            else self.template
        )

    @property
    def free_symbols(self) -> set[sp.Symbol]:
        return self.at_size.free_symbols - {self.index}

    def map(self, how) -> Family:
        """The family whose template is how(template)."""
        return Family(how(self.template), self.index, self.count, self.fixed)


Blocks = Sequence[sp.ImmutableMatrix] | Family


def _free(items: Blocks) -> set[sp.Symbol]:
    if isinstance(items, Family):
        return items.free_symbols
    return set().union(*(m.free_symbols for m in items))


def _shapes(items: Blocks) -> set[tuple[int, int]]:
    return {items.shape} if isinstance(items, Family) else {m.shape for m in items}


def consecutive(size: int, width: int = 2) -> tuple[tuple[int, ...], ...]:
    """The partition (0, 1), (2, 3), … of range(size) into runs of width."""
    return tuple(tuple(range(s, s + width)) for s in range(0, size, width))


@dataclass(frozen=True)
class BlockMatrix:
    """A size×size matrix whose only nonzero entries are blocks[b] on the rows/columns support[b]."""

    blocks: Blocks
    supports: tuple[tuple[int, ...], ...]
    size: int
    label: Label

    @property
    def shape(self) -> tuple[int, int]:
        return (self.size, self.size)

    @property
    def free_symbols(self) -> set[sp.Symbol]:
        return _free(self.blocks)

    def block(self, b: int) -> sp.ImmutableMatrix:
        return self.blocks[b]

    def transpose(self) -> BlockMatrix:
        """The transpose: every block transposed, on the same components."""
        text, latex = self.label.text, self.label.latex
        blocks = self.blocks
        return BlockMatrix(
            blocks.map(lambda m: m.T) if isinstance(blocks, Family) else tuple(m.T for m in blocks),
            self.supports,
            self.size,
            Label(f"{text}ᵀ", f"{latex}^{{T}}"),
        )

    def dense(self) -> sp.ImmutableMatrix:
        """The explicit size×size matrix (for small sizes and tests only)."""
        out = sp.zeros(self.size, self.size)
        for m, s in zip(self.blocks, self.supports, strict=True):
            for r, row in enumerate(s):
                for c, col in enumerate(s):
                    out[row, col] = m[r, c]
        return sp.ImmutableMatrix(out)


@dataclass(frozen=True)
class BlockVector:
    """A size-long column whose components support[b] are pieces[b] (a column each)."""

    pieces: Blocks
    supports: tuple[tuple[int, ...], ...]
    size: int
    label: Label

    @property
    def free_symbols(self) -> set[sp.Symbol]:
        return _free(self.pieces)

    def block(self, b: int) -> sp.ImmutableMatrix:
        return self.pieces[b]

    def __sub__(self, other: BlockVector) -> BlockVector:
        if other.supports != self.supports or other.size != self.size:
            raise ValueError("only vectors on the same partition subtract block by block")
        label = Label(
            f"{self.label.text} − {other.label.text}", f"{self.label.latex} - {other.label.latex}"
        )
        a, b = self.pieces, other.pieces
        if (
            isinstance(a, Family)
            and isinstance(b, Family)
            and (a.index, a.fixed) == (b.index, b.fixed)
        ):
            pieces = a.map(lambda t: t - b.template)
        else:
            pieces = tuple(x - y for x, y in zip(a, b, strict=True))
        return BlockVector(pieces, self.supports, self.size, label)

    def dense(self) -> sp.ImmutableMatrix:
        """The explicit column (for small sizes and tests only)."""
        out = [sp.Integer(0)] * self.size
        for piece, s in zip(self.pieces, self.supports, strict=True):
            for r, row in enumerate(s):
                out[row] = piece[r]
        return sp.ImmutableMatrix(out)


@dataclass(frozen=True)
class Permutation:
    """The permutation matrix P with P·e_j = e_{targets[j]}; name is how it prints."""

    targets: tuple[int, ...]
    name: str = "P"

    @property
    def size(self) -> int:
        return len(self.targets)

    def is_bijection(self) -> bool:
        """True when targets is a rearrangement of 0 .. size − 1, i.e. P·Pᵀ = Pᵀ·P = I."""
        return sorted(self.targets) == list(range(self.size))

    def moved(self, supports: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(self.targets[j] for j in s) for s in supports)

    def dense(self) -> sp.ImmutableMatrix:
        """The explicit permutation matrix (for small sizes and tests only)."""
        out = sp.zeros(self.size, self.size)
        for j, t in enumerate(self.targets):
            out[t, j] = 1
        return sp.ImmutableMatrix(out)


@dataclass(frozen=True)
class Permuted:
    """P·x for a vector x, or P·M·Pᵀ for a matrix M: the same blocks on moved components."""

    permutation: Permutation
    inner: BlockMatrix | BlockVector

    @property
    def size(self) -> int:
        return self.inner.size

    @property
    def supports(self) -> tuple[tuple[int, ...], ...]:
        return self.permutation.moved(self.inner.supports)

    @property
    def free_symbols(self) -> set[sp.Symbol]:
        return self.inner.free_symbols

    def block(self, b: int) -> sp.ImmutableMatrix:
        return self.inner.block(b)


@dataclass(frozen=True)
class Product:
    """factors[0]·factors[1]·…: block-diagonal matrices, the last possibly a vector."""

    factors: tuple[BlockMatrix | BlockVector | Permuted, ...]

    def block(self, b: int) -> sp.MatMul:
        return sp.MatMul(*(f.block(b) for f in self.factors), evaluate=False)


@dataclass(frozen=True)
class Inner:
    """⟨a, b⟩ = aᵀ·b for two vectors on one partition: the sum over blocks of a_bᵀ·b_b."""

    left: BlockVector | Product
    right: BlockVector | Product

    def block(self, b: int) -> sp.MatMul:
        return sp.MatMul(sp.Transpose(self.left.block(b)), self.right.block(b), evaluate=False)


@dataclass(frozen=True)
class BlockSum:
    """Σ_b terms[b], each a 1×1 matrix: a scalar written as one term per block."""

    terms: Blocks
    label: Label

    @property
    def free_symbols(self) -> set[sp.Symbol]:
        return _free(self.terms)

    def block(self, b: int) -> sp.ImmutableMatrix:
        return self.terms[b]


Side = BlockMatrix | BlockVector | Permuted | Product | Inner | BlockSum


@dataclass(frozen=True)
class BlockEquation:
    """lhs = rhs, two block-structured sides; block b of it is lhs.block(b) = rhs.block(b)."""

    lhs: Side
    rhs: Side


def partition(side: Side) -> tuple[str, int, tuple[tuple[int, ...], ...] | int]:
    """(kind, size, supports) of a side, or ValueError when its parts do not share a partition.

    kind is "matrix", "vector" or "scalar"; for a scalar, size is 1 and supports is the number
    of terms. Every support must be a partition of range(size) with blocks of matching shape.
    """
    if isinstance(side, BlockSum):
        return "scalar", 1, len(side.terms)
    if isinstance(side, Inner):
        left, right = partition(side.left), partition(side.right)
        if left[0] != "vector" or left != right:
            raise ValueError("an inner product needs two vectors on the same partition")
        return "scalar", 1, len(left[2])
    if isinstance(side, Product):
        parts = [partition(f) for f in side.factors]
        kinds = [p[0] for p in parts]
        if any(k != "matrix" for k in kinds[:-1]):
            raise ValueError("only the last factor of a product may be a vector")
        if len({p[1:] for p in parts}) != 1:
            raise ValueError("the factors of a product do not share one partition")
        return kinds[-1], parts[0][1], parts[0][2]
    if isinstance(side, Permuted):
        if not side.permutation.is_bijection() or side.permutation.size != side.inner.size:
            raise ValueError(f"{side.permutation.name} is not a permutation of the components")
        kind, size, _ = partition(side.inner)
        return kind, size, side.supports
    kind = "matrix" if isinstance(side, BlockMatrix) else "vector"
    items = side.blocks if isinstance(side, BlockMatrix) else side.pieces
    if len(items) != len(side.supports):
        raise ValueError("the number of blocks differs from the number of supports")
    covered = sorted(c for s in side.supports for c in s)
    if covered != list(range(side.size)):
        raise ValueError("the supports are not a partition of the components")
    shapes = _shapes(items)
    widths = {len(s) for s in side.supports}
    wants = {(w, w) if kind == "matrix" else (w, 1) for w in widths}
    if len(shapes) != 1 or shapes != wants:
        raise ValueError(
            f"blocks of shape {sorted(shapes)} sit on supports of width {sorted(widths)}"
        )
    return kind, side.size, side.supports


def template(side: Side) -> tuple[sp.Basic, Family] | None:
    """Block b of side as one expression in the index (with the fixed values in), and the family
    it comes from; None unless every part of side is a family with one index, count and fixed."""
    if isinstance(side, BlockMatrix | BlockVector | BlockSum):
        items = {BlockMatrix: "blocks", BlockVector: "pieces", BlockSum: "terms"}[type(side)]
        family = getattr(side, items)
        return (family.at_size, family) if isinstance(family, Family) else None
    if isinstance(side, Permuted):
        return template(side.inner)
    parts = [template(f) for f in side.factors] if isinstance(side, Product) else None
    if isinstance(side, Inner):
        parts = [template(side.left), template(side.right)]
    if any(p is None for p in parts):
        return None
    families = {(f.index, f.count, f.fixed) for _, f in parts}
    if len(families) != 1:
        return None
    exprs = [e for e, _ in parts]
    if isinstance(side, Inner):
        exprs[0] = sp.Transpose(exprs[0])
    return sp.MatMul(*exprs, evaluate=False), parts[0][1]
