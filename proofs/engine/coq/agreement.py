"""Where a part's statement is a Headline theorem, the part's Section proves that Headline
statement again, from the part (and the parts it stands with) alone: the chain and the
hand-written theorem agree.

Each agreement is `Theorem {headline}_from_{part} : <the Headline theorem's type>`, its statement
taken from the Headline theorem itself (`ltac:(let T := type of ... in exact T)`), so it cannot
drift from Headline.v. Its proof uses the part's theorem, Headline's definitions and their
unfolding lemmas (pe_even, shift_odd, sum_pairs, ...), and Helpers' tactics, never the Headline
theorem it restates. For the concatenated layout, whose facts are Headline theorems at one
d_model, the agreement is the Headline statement at that size, from the facts. For the precision
theorem's roundings, written with floor and ceiling, the agreement is the same rounding stated
with Flocq's round to nearest even (Helpers' round_NE_at is the bridge). {name} in a proof stands
for a part's Coq name.

One module over 400 lines because it is one table: each Headline statement a part restates, with
the Coq proof that derives it from the part; the entries share their unfolding lemmas and
tactics, and apart they would split one correspondence across files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

# (theorem, part) -> [(Headline theorem, Coq proof)], the proof as sentences after `Proof.`
PROOFS: dict[tuple[str, str], list[tuple[str, str]]] = {
    ("frequencies", "omega_ratio"): [
        (
            "omega_succ",
            """intros i d Hd.
  replace (- 2 / d) with (- (2 / d)) by (field; exact Hd).
  rewrite <- ({omega_ratio} d i Hd).
  replace (i + 1) with (1 + i) by ring.
  field. apply omega_neq_0.""",
        )
    ],
    ("bounded", "norm_any_d"): [
        (
            "pe_norm",
            """intros n pos.
  rewrite (sum_pairs_at _ (pred (2 * S n)) n) by lia.
  transitivity (INR (2 * S n) / 2); [| rewrite mult_INR; simpl (INR 2); field].
  rewrite <- ({norm_any_d} n pos).
  apply sum_eq. intros i _. blocks. same_args. ring.""",
        )
    ],
    ("bounded", "cos_at_least_minus_1"): [
        (
            "pe_bounded",
            """intros d pos j. unfold pe. destruct (Nat.even j).
  - pose proof ({sin_at_most_1} (INR d) (INR (Nat.div2 j)) pos).
    pose proof ({sin_at_least_minus_1} (INR d) (INR (Nat.div2 j)) pos). lra.
  - pose proof ({cos_at_most_1} (INR d) (INR (Nat.div2 j)) pos).
    pose proof ({cos_at_least_minus_1} (INR d) (INR (Nat.div2 j)) pos). lra.""",
        )
    ],
    ("unique", "first_pairs_differ"): [
        (
            "pe_unique_int",
            """intros d p q Hpq.
  assert (W : omega (INR 0) (INR d) = 1).
  {{ unfold omega. rewrite <- ({first_frequency_is_1} (INR d)). f_equal. simpl INR.
    unfold Rdiv. ring. }}
  unfold pe. simpl Nat.even. simpl Nat.div2. rewrite W, !Rmult_1_r.
  destruct (Req_dec (sin (IZR p)) (sin (IZR q))) as [Hs | Hs]; [right | left; exact Hs].
  intro Hc.
  pose proof (f_equal (fun M : mat => M 0%nat 0%nat) ({first_pair_distance} (IZR p) (IZR q)))
    as E.
  mat_unfold in E. rewrite Hs, Hc in E.
  apply ({first_pairs_differ} (p - q)); [lia |]. rewrite minus_IZR.
  ring_simplify in E. lra.""",
        )
    ],
    ("rotation", "pair_shift"): [
        (
            "rotation_vector",
            """intros d pos k j.
  destruct (Nat.Even_or_Odd j) as [[i ->] | [i ->]]; [| rewrite Nat.add_1_r]; blocks.
  - pose proof (f_equal (fun M : mat => M 0%nat 0%nat) ({pair_shift} (INR d) (INR i) k pos))
      as E.
    mat_unfold in E. align E. from_entry E.
  - pose proof (f_equal (fun M : mat => M 1%nat 0%nat) ({pair_shift} (INR d) (INR i) k pos))
      as E.
    mat_unfold in E. align E. from_entry E.""",
        )
    ],
    ("similarity", "dot_sum"): [
        (
            "pe_dot",
            """intros n pos k.
  rewrite (sum_pairs_at _ (pred (2 * S n)) n) by lia.
  rewrite <- ({dot_sum} n k pos).
  apply sum_eq. intros i _. blocks. same_args. ring.""",
        )
    ],
    ("similarity", "second_difference_nonzero"): [
        (
            "ramp_similarity_depends_on_p",
            """intros L k HL [c H].
  assert (Sp : forall p, p * (k + p) / L ^ 2 = c) by (intro p; rewrite <- (H p); field; lra).
  apply ({second_difference_nonzero} L HL).
  rewrite <- ({ramp_second_difference} L k 0) by lra.
  transitivity (1 * (k + 1) / L ^ 2 - 2 * (0 * (k + 0) / L ^ 2) + - 1 * (k + - 1) / L ^ 2).
  {{ field. lra. }}
  rewrite (Sp 1), (Sp 0), (Sp (-1)). ring.""",
        )
    ],
    ("dot_product", "dot_sum"): [
        (
            "pe_dot",
            """intros n pos k.
  rewrite (sum_pairs_at _ (pred (2 * S n)) n) by lia.
  rewrite <- ({dot_sum} n k pos).
  apply sum_eq. intros i _. blocks. same_args. ring.""",
        )
    ],
    ("dot_product", "pair_dot_even"): [
        (
            "pe_dot_even",
            """intros n pos k.
  rewrite !(sum_pairs_at _ (pred (2 * S n)) n) by lia.
  apply sum_eq. intros i _. blocks.
  pose proof (f_equal (fun M : mat => M 0%nat 0%nat)
    ({pair_dot_even} (INR (2 * S n)) (INR i) k pos)) as E.
  mat_unfold in E. align E. from_entry E.""",
        )
    ],
    ("shift_maps", "index_no_linear_map"): [
        (
            "raw_index_no_linear_shift",
            """intros k Hk [a H]. apply ({index_no_linear_map} k Hk).
  exists (rows [[a]]). intro pos. apply mat_ext; intros ri ci.
  destruct ri as [|ri]; destruct ci as [|ci]; mat_unfold; [rewrite <- H |..]; ring.""",
        )
    ],
    ("shift_maps", "lone_sine_no_map"): [
        (
            "lone_sine_no_linear_shift",
            """intros k Hk [a H]. apply ({lone_sine_no_map} k Hk).
  exists (rows [[a]]). intro pos. apply mat_ext; intros ri ci.
  destruct ri as [|ri]; destruct ci as [|ci]; mat_unfold; [rewrite <- H |..]; ring.""",
        )
    ],
    ("shift_maps", "ramp_no_linear_map"): [
        (
            "ramp_no_linear_shift",
            """intros L k HL Hk [a H]. apply ({ramp_no_linear_map} L k HL); [nonzero |].
  exists (rows [[a]]). intro pos. apply mat_ext; intros ri ci.
  destruct ri as [|ri]; destruct ci as [|ci]; mat_unfold; [rewrite <- H |..]; ring.""",
        )
    ],
    ("group", "compose"): [
        (
            "rotation_compose",
            """intros a b [x y]. pose proof ({compose} 1 0 a b) as C. rewrite omega_0 in C.
  unfold rot. cbn [fst snd]. f_equal.
  - pose proof (f_equal (fun M : mat => M 0%nat 0%nat) C) as E0.
    pose proof (f_equal (fun M : mat => M 0%nat 1%nat) C) as E1.
    mat_unfold in E0. mat_unfold in E1. align E0. align E1. from_entries E0 E1 x y.
  - pose proof (f_equal (fun M : mat => M 1%nat 0%nat) C) as E0.
    pose proof (f_equal (fun M : mat => M 1%nat 1%nat) C) as E1.
    mat_unfold in E0. mat_unfold in E1. align E0. align E1. from_entries E0 E1 x y.""",
        ),
        (
            "shift_compose",
            """intros d a b v j.
  destruct (Nat.Even_or_Odd j) as [[i ->] | [i ->]]; [| rewrite Nat.add_1_r]; blocks.
  - pose proof (f_equal (fun M : mat => M 0%nat 0%nat) ({compose} (INR d) (INR i) a b)) as E0.
    pose proof (f_equal (fun M : mat => M 0%nat 1%nat) ({compose} (INR d) (INR i) a b)) as E1.
    mat_unfold in E0. mat_unfold in E1. align E0. align E1.
    from_entries E0 E1 (v (2 * i)%nat) (v (S (2 * i))).
  - pose proof (f_equal (fun M : mat => M 1%nat 0%nat) ({compose} (INR d) (INR i) a b)) as E0.
    pose proof (f_equal (fun M : mat => M 1%nat 1%nat) ({compose} (INR d) (INR i) a b)) as E1.
    mat_unfold in E0. mat_unfold in E1. align E0. align E1.
    from_entries E0 E1 (v (2 * i)%nat) (v (S (2 * i))).""",
        ),
    ],
    ("group", "left_inverse"): [
        (
            "rotation_inverse",
            """intros a [x y]. pose proof ({left_inverse} 1 0 a) as C. rewrite omega_0 in C.
  unfold rot. cbn [fst snd]. f_equal.
  - pose proof (f_equal (fun M : mat => M 0%nat 0%nat) C) as E0.
    pose proof (f_equal (fun M : mat => M 0%nat 1%nat) C) as E1.
    mat_unfold in E0. mat_unfold in E1. align E0. align E1. from_entries E0 E1 x y.
  - pose proof (f_equal (fun M : mat => M 1%nat 0%nat) C) as E0.
    pose proof (f_equal (fun M : mat => M 1%nat 1%nat) C) as E1.
    mat_unfold in E0. mat_unfold in E1. align E0. align E1. from_entries E0 E1 x y.""",
        ),
        (
            "shift_inverse",
            """intros d k v j.
  destruct (Nat.Even_or_Odd j) as [[i ->] | [i ->]]; [| rewrite Nat.add_1_r]; blocks.
  - pose proof (f_equal (fun M : mat => M 0%nat 0%nat) ({left_inverse} (INR d) (INR i) k)) as E0.
    pose proof (f_equal (fun M : mat => M 0%nat 1%nat) ({left_inverse} (INR d) (INR i) k)) as E1.
    mat_unfold in E0. mat_unfold in E1. align E0. align E1.
    from_entries E0 E1 (v (2 * i)%nat) (v (S (2 * i))).
  - pose proof (f_equal (fun M : mat => M 1%nat 0%nat) ({left_inverse} (INR d) (INR i) k)) as E0.
    pose proof (f_equal (fun M : mat => M 1%nat 1%nat) ({left_inverse} (INR d) (INR i) k)) as E1.
    mat_unfold in E0. mat_unfold in E1. align E0. align E1.
    from_entries E0 E1 (v (2 * i)%nat) (v (S (2 * i))).""",
        ),
    ],
    ("rope", "pair_relative"): [
        (
            "rope_relative",
            """intros p m t [q1 q2] [k1 k2]. cbn [rot fst snd].
  pose proof (f_equal (fun M : mat => M 0%nat 0%nat) ({pair_relative} k1 k2 m p q1 q2 t)) as E.
  mat_unfold in E. align E. from_entry E.""",
        ),
        (
            "rope_vector",
            """intros n p m q u.
  rewrite !(sum_pairs_at _ (pred (2 * S n)) n) by lia.
  apply sum_eq. intros i _. blocks.
  pose proof (f_equal (fun M : mat => M 0%nat 0%nat) ({pair_relative} (u (2 * i)%nat)
    (u (S (2 * i))) m p (q (2 * i)%nat) (q (S (2 * i))) (omega (INR i) (INR (2 * S n))))) as E.
  mat_unfold in E. align E. from_entry E.""",
        ),
    ],
    # The pinned bf16_257 is Flocq's round; the part is u·RNE(x/u) with floor and ceiling.
    ("rope_precision", "bf16_257"): [
        (
            "bf16_257",
            """rewrite (round_NE_at (-133) 8 9 2 257) by (bpow_num; (lia || lra)).
  refine (eq_trans _ {bf16_257}). f_equal. f_equal; f_equal; field.""",
        )
    ],
    ("layouts", "any_frequency_shift"): [
        (
            "rotation_pair",
            """intros pos k w. pose proof ({any_frequency_shift} k w pos) as C. split.
  - pose proof (f_equal (fun M : mat => M 0%nat 0%nat) C) as E.
    mat_unfold in E. align E. from_entry E.
  - pose proof (f_equal (fun M : mat => M 1%nat 0%nat) C) as E.
    mat_unfold in E. align E. from_entry E.""",
        )
    ],
}

# The concatenated layout's facts are Headline theorems at one d_model = 2(n + 1): the Headline
# statement at n (for j < d_model), from the fact. n -> (Headline theorem, statement, proof).
INSTANCES: dict[tuple[str, str], Callable[[int], tuple[str, str, str]]] = {
    ("layouts", "concatenated_is_permuted"): lambda n: (
        "pe_concat_perm",
        f"forall (pos : R) (j : nat), (j < 2 * S {n})%nat -> "
        f"pe_concat {n} pos j = pe (2 * S {n}) pos (concat_index (S {n}) j)",
        "intros pos j Hj. symmetry. exact ({concatenated_is_permuted} pos j Hj).",
    ),
    ("layouts", "concatenated_shift_map"): lambda n: (
        "shift_concat_blocks",
        f"forall (k : R) (v : nat -> R) (j : nat), (j < 2 * S {n})%nat -> "
        f"shift_concat {n} k v j = if Nat.ltb j (S {n}) then "
        f"cos (k * omega (INR j) (INR (2 * S {n}))) * v j + "
        f"sin (k * omega (INR j) (INR (2 * S {n}))) * v (S {n} + j)%nat else "
        f"- sin (k * omega (INR (j - S {n})) (INR (2 * S {n}))) * v (j - S {n})%nat + "
        f"cos (k * omega (INR (j - S {n})) (INR (2 * S {n}))) * v j",
        "intros k v j Hj. rewrite ({concatenated_shift_map} k v j Hj). unfold bmat_concat.\n"
        f"  change (2 * S {n})%nat with {2 * (n + 1)}%nat.\n"
        "  destruct (Nat.ltb j (S {n})); mat_unfold; ring.",
    ),
    ("layouts", "concatenated_shift"): lambda n: (
        "pe_concat_shift",
        f"forall (pos k : R) (j : nat), (j < 2 * S {n})%nat -> "
        f"shift_concat {n} k (pe_concat {n} pos) j = pe_concat {n} (pos + k) j",
        "intros pos k j Hj. rewrite ({concatenated_shift_map} k (pe_concat {n} pos) j Hj).\n"
        "  replace (pos + k) with (k + pos) by ring. exact ({concatenated_shift} k pos j Hj).",
    ),
}


def _rounding(emin: int, prec: int, e: int, u: str, x: str, value: str) -> tuple[str, str]:
    """The statement fl(x) = value in Flocq (the format of prec bits and least exponent emin,
    x in the binade [2^(e-1), 2^e), spacing u = 2^(e-prec)) and its proof from the part, which
    states u·RNE(x/u) = value with RNE written with floor and ceiling (Helpers' round_NE_at)."""
    return (
        f"round radix2 (FLT_exp ({emin}) {prec}) ZnearestE {x} = {value}",
        f"rewrite (round_NE_at ({emin}) {prec} {e} {u} {x}) by (bpow_num; (lia || lra)).\n"
        "  refine (eq_trans _ {part}). f_equal. f_equal; f_equal; field.",
    )


def _rotation(angle: str) -> str:
    """G(angle) = [[cos, -sin], [sin, cos]], as Helpers' rows."""
    return f"rows [[cos ({angle}); - sin ({angle})]; [sin ({angle}); cos ({angle})]]"


_BF16 = "round radix2 (FLT_exp (-133) 8) ZnearestE"
# 10⁴^(−3/8) = 10^(−3/2) = √10/100: 10⁴ = 10^4, and −3/2 = −2 + 1/2.
_THETA_24 = """assert (T : Rpower 10000 (- 3 / 8) = sqrt 10 / 100).
  {{ replace 10000 with (Rpower 10 (INR 4)) by (rewrite Rpower_pow; simpl; lra).
    rewrite Rpower_mult. replace (INR 4 * (- 3 / 8)) with (- INR 2 + / 2) by (simpl; field).
    rewrite Rpower_plus, Rpower_Ropp, Rpower_pow, Rpower_sqrt by lra. simpl. field. }}"""

_FP16 = "round radix2 (FLT_exp (-24) 11) ZnearestE"


def _fp16_score() -> str:
    """⟨G(fl(10002)θ)q, G(fl(10000)θ)κ⟩ = ⟨q, G(0·θ)κ⟩ with fp16 positions, for every q, κ, θ."""
    key, query = f"({_FP16} 10000 * theta)", f"({_FP16} 10002 * theta)"
    score = (
        f"(kappa_1 * cos {key} - kappa_2 * sin {key}) * (q_1 * cos {query} - q_2 * sin {query}) + "
        f"(kappa_1 * sin {key} + kappa_2 * cos {key}) * (q_1 * sin {query} + q_2 * cos {query})"
    )
    return (
        f"forall (kappa_1 kappa_2 q_1 q_2 theta : R),\n    rows [[{score}]] = "
        f"mmul 2 (mmul 2 (rows [[q_1; q_2]]) ({_rotation('theta * (10000 - 10000)')})) "
        "(col [kappa_1; kappa_2])"
    )


# (theorem, part) -> (what the part says, its statement with Flocq's round to nearest even, the
# proof from the part, the part's Coq name written {part}): the floor-and-ceiling formula of the
# precision theorems is rounding, as Flocq defines it, in the formats' real parameters
# (fp32: prec 24, emin -149; fp16: prec 11, emin -24; bf16: prec 8, emin -133).
ROUNDINGS: dict[tuple[str, str], tuple[str, tuple[str, str]]] = {
    ("rope_precision", "nearest_fixes_even"): (
        "RNE(2m) = 2m (Flocq's ZnearestE)",
        (
            "forall m : Z, IZR (ZnearestE (2 * IZR m)) = 2 * IZR m",
            "intros m. rewrite ZnearestE_floor_ceil. exact ({part} m).",
        ),
    ),
    ("rope_precision", "nearest_fixes_odd"): (
        "RNE(2m + 1) = 2m + 1 (Flocq's ZnearestE)",
        (
            "forall m : Z, IZR (ZnearestE (1 + 2 * IZR m)) = 1 + 2 * IZR m",
            "intros m. rewrite ZnearestE_floor_ceil. exact ({part} m).",
        ),
    ),
    ("rope_precision", "fp32_2_to_24_exact"): (
        "fl_fp32(2^24) = 2^24 (Flocq's round)",
        _rounding(-149, 24, 25, "2", "16777216", "16777216"),
    ),
    ("rope_precision", "fp32_first_inexact"): (
        "fl_fp32(2^24 + 1) = 2^24 (Flocq's round)",
        _rounding(-149, 24, 25, "2", "16777217", "16777216"),
    ),
    ("rope_precision", "fp16_2049"): (
        "fl_fp16(2049) = 2048 (Flocq's round)",
        _rounding(-24, 11, 12, "2", "2049", "2048"),
    ),
    ("rope_precision", "bf16_positions_collide"): (
        "G(fl_bf16(257)·θ) = G(fl_bf16(256)·θ) (Flocq's round)",
        (
            f"forall (theta : R), {_rotation(f'{_BF16} 257 * theta')} = "
            f"{_rotation(f'{_BF16} 256 * theta')}",
            """intros theta.
  rewrite (round_NE_at (-133) 8 9 2 257), (round_NE_at (-133) 8 9 2 256)
    by (bpow_num; (lia || lra)).
  replace ((257 / 2 - 1 / 2) / 2) with 64 by field.
  replace ((257 / 2 + 1 / 2) / 2) with (129 / 2) by field.
  replace ((256 / 2 - 1 / 2) / 2) with (255 / 4) by field.
  replace ((256 / 2 + 1 / 2) / 2) with (257 / 4) by field.
  exact ({part} theta).""",
        ),
    ),
    ("rope_precision", "bf16_inv_freq_pair_24"): (
        "fl_bf16(θ_24) = 65/2048 (Flocq's round)",
        (
            f"{_BF16} (Rpower 10000 (- 3 / 8)) = 65 / 2048",
            _THETA_24
            + """
  rewrite (round_NE_at (-133) 8 (-4) (/ 4096) (Rpower 10000 (- 3 / 8)))
    by (bpow_num; first [lia | reflexivity | rewrite T; split; interval with (i_prec 60)]).
  rewrite T.
  replace ((sqrt 10 / 100 / / 4096 - 1 / 2) / 2) with (- 1 / 4 + 512 * sqrt 10 / 25) by field.
  replace ((sqrt 10 / 100 / / 4096 + 1 / 2) / 2) with (1 / 4 + 512 * sqrt 10 / 25) by field.
  rewrite <- {part}. field.""",
        ),
    ),
    ("rope_precision", "fp16_positions_score"): (
        "The score with fp16 positions 10002 and 10000 is the score at distance 0 (Flocq's round)",
        (
            _fp16_score(),
            """intros kappa_1 kappa_2 q_1 q_2 theta.
  rewrite (round_NE_at (-24) 11 14 8 10002), (round_NE_at (-24) 11 14 8 10000)
    by (bpow_num; (lia || lra)).
  replace ((10002 / 8 - 1 / 2) / 2) with (4999 / 8) by field.
  replace ((10002 / 8 + 1 / 2) / 2) with (5003 / 8) by field.
  replace ((10000 / 8 - 1 / 2) / 2) with (2499 / 4) by field.
  replace ((10000 / 8 + 1 / 2) / 2) with (2501 / 4) by field.
  exact ({part} kappa_1 kappa_2 q_1 q_2 theta).""",
        ),
    ),
    ("rope_precision", "fp16_10002"): (
        "fl_fp16(10002) = 10000 (Flocq's round)",
        _rounding(-24, 11, 14, "8", "10002", "10000"),
    ),
}


@dataclass(frozen=True)
class Agreement:
    """A Headline theorem proved again from a part: its name, statement and text."""

    headline: str
    name: str
    statement: str
    text: str


def agreements(theorem: str, part: str, names: dict[str, str], pairs: int) -> list[Agreement]:
    """The agreements of a part. names: part -> Coq name; pairs: d_model/2 of the theorem's
    concrete statements."""
    out = []
    if (make := INSTANCES.get((theorem, part))) is not None:
        n = pairs - 1
        headline, statement, proof = make(n)
        name = f"{headline}_at_{n}_from_{names[part]}"
        text = (
            f"(* {headline}, the Headline theorem at n = {n} (d_model = {2 * pairs}), from the "
            f"part {names[part]}. *)\nTheorem {name} :\n  {statement}.\n"
            f"Proof.\n  {proof.format(**names, n=n)}\nQed."
        )
        out.append(Agreement(f"{headline} (d_model = {2 * pairs})", name, statement, text))
    for headline, proof in PROOFS.get((theorem, part), []):
        name = f"{headline}_from_{names[part]}"
        statement = f"ltac:(let T := type of {headline} in exact T)"
        text = (
            f"(* {headline}, the Headline theorem, from the part {names[part]}. *)\n"
            f"Theorem {name} : {statement}.\nProof.\n  {proof.format(**names)}\nQed."
        )
        out.append(Agreement(headline, name, statement, text))
    if (rounding := ROUNDINGS.get((theorem, part))) is not None:
        says, (statement, proof) = rounding
        name = f"{names[part]}_in_flocq"
        text = (
            f"(* {says}, from the part {names[part]}. *)\n"
            f"Theorem {name} :\n  {statement}.\nProof.\n  {proof.format(part=names[part])}\nQed."
        )
        out.append(Agreement(says, name, statement, text))
    return out
