Require Import Reals.
Open Scope R_scope.

Definition omega (i d : R) : R := Rpower 10000 (- (2 * i) / d).

Definition pe (d : nat) (pos : R) (j : nat) : R :=
  if Nat.even j then sin (pos * omega (INR (Nat.div2 j)) (INR d))
  else cos (pos * omega (INR (Nat.div2 j)) (INR d)).

Definition shift (d : nat) (k : R) (v : nat -> R) (j : nat) : R :=
  let w := omega (INR (Nat.div2 j)) (INR d) in
  if Nat.even j then cos (k * w) * v j + sin (k * w) * v (S j)
  else - sin (k * w) * v (pred j) + cos (k * w) * v j.

Definition rot (t : R) (v : R * R) : R * R :=
  (cos t * fst v + sin t * snd v, - sin t * fst v + cos t * snd v).

(* Headline theorems of the sinusoidal positional encoding, checked by the Coq kernel.
   Only the standard library is used (and PiIrrational.v, Niven's proof that PI is irrational,
   on the same library), except the two floating-point theorems at the end, stated with Flocq's
   rounding; the definitions above (and rope, rope_half below) are the whole vocabulary. *)

Require Import Arith Lia Lra.
(* ZArith is left out on purpose: its Zpower.shift would hide the shift defined above.
   PiIrrational is required, not imported, for the same reason: it imports ZArith itself. *)
Require PeProofs.PiIrrational.

(* ---------- Index bookkeeping: component 2i is a sine, 2i+1 a cosine, both of pair i. ---------- *)

Lemma even_double : forall i : nat, Nat.even (2 * i) = true.
Proof. intro i. apply Nat.even_spec. exists i. reflexivity. Qed.

Lemma even_succ_double : forall i : nat, Nat.even (S (2 * i)) = false.
Proof.
  intro i. replace (S (2 * i)) with (1 + 2 * i)%nat by lia.
  rewrite Nat.even_add_mul_2. reflexivity.
Qed.

Lemma pe_even : forall d pos i, pe d pos (2 * i) = sin (pos * omega (INR i) (INR d)).
Proof. intros. unfold pe. rewrite even_double, Nat.div2_double. reflexivity. Qed.

Lemma pe_odd : forall d pos i, pe d pos (S (2 * i)) = cos (pos * omega (INR i) (INR d)).
Proof. intros. unfold pe. rewrite even_succ_double, Nat.div2_succ_double. reflexivity. Qed.

Lemma shift_even : forall d k v i, shift d k v (2 * i) =
  cos (k * omega (INR i) (INR d)) * v (2 * i)%nat + sin (k * omega (INR i) (INR d)) * v (S (2 * i)).
Proof. intros. unfold shift. rewrite even_double, Nat.div2_double. reflexivity. Qed.

Lemma shift_odd : forall d k v i, shift d k v (S (2 * i)) =
  - sin (k * omega (INR i) (INR d)) * v (2 * i)%nat + cos (k * omega (INR i) (INR d)) * v (S (2 * i)).
Proof.
  intros. unfold shift. rewrite even_succ_double, Nat.div2_succ_double, Nat.pred_succ. reflexivity.
Qed.

(* A sum over the 2(n+1) components of a d = 2(n+1) encoding, regrouped pair by pair. *)
Lemma sum_pairs : forall (f : nat -> R) (n : nat),
  sum_f_R0 f (S (2 * n)) = sum_f_R0 (fun i => f (2 * i)%nat + f (S (2 * i))) n.
Proof.
  intros f n. induction n as [|n IH].
  - reflexivity.
  - replace (S (2 * S n)) with (S (S (S (2 * n)))) by lia.
    rewrite tech5, tech5, IH, tech5.
    replace (2 * S n)%nat with (S (S (2 * n))) by lia.
    ring.
Qed.

(* ---------- Theorem (rotation): shifting by k is a rotation of each sine/cosine pair. ---------- *)

Theorem rotation_pair : forall pos k w : R,
  cos (k * w) * sin (pos * w) + sin (k * w) * cos (pos * w) = sin ((pos + k) * w) /\
  - sin (k * w) * sin (pos * w) + cos (k * w) * cos (pos * w) = cos ((pos + k) * w).
Proof.
  intros pos k w. rewrite Rmult_plus_distr_r, sin_plus, cos_plus. split; ring.
Qed.

Theorem rotation_vector : forall (d : nat) (pos k : R) (j : nat),
  shift d k (pe d pos) j = pe d (pos + k) j.
Proof.
  intros d pos k j. destruct (Nat.Even_or_Odd j) as [[i ->] | [i ->]].
  - unfold shift. rewrite even_double, Nat.div2_double, pe_even, pe_even, pe_odd.
    apply rotation_pair.
  - replace (2 * i + 1)%nat with (S (2 * i)) by lia.
    unfold shift. rewrite even_succ_double, Nat.div2_succ_double, pe_odd, pe_odd.
    rewrite Nat.pred_succ, pe_even. apply rotation_pair.
Qed.

(* ---------- Theorem (ramp): the ramp pos/L has no linear shift map, only an affine one. ---------- *)

Theorem ramp_no_linear_shift : forall L k : R, 0 < L -> k <> 0 ->
  ~ (exists a : R, forall pos : R, a * (pos / L) = (pos + k) / L).
Proof.
  intros L k HL Hk [a H]. specialize (H 0). apply Hk.
  replace k with ((0 + k) / L * L) by (field; lra).
  rewrite <- H. unfold Rdiv. ring.
Qed.

Theorem ramp_affine_shift : forall L k : R, 0 < L ->
  exists b : R, forall pos : R, pos / L + b = (pos + k) / L.
Proof. intros L k HL. exists (k / L). intro pos. field. lra. Qed.

(* ---------- Theorem (bounded): every component lies in [-1, 1]. ---------- *)

Theorem pe_bounded : forall d pos j, -1 <= pe d pos j <= 1.
Proof. intros. unfold pe. destruct (Nat.even j); [apply SIN_bound | apply COS_bound]. Qed.

(* ---------- Theorem (norm): |PE(pos)|^2 = d/2 for every position. ---------- *)

Theorem pe_norm : forall (n : nat) (pos : R),
  sum_f_R0 (fun j => (pe (2 * S n) pos j) ^ 2) (pred (2 * S n)) = INR (S n).
Proof.
  intros n pos. replace (pred (2 * S n)) with (S (2 * n)) by lia.
  rewrite sum_pairs.
  rewrite (sum_eq _ (fun _ => 1)).
  - rewrite sum_cte. ring.
  - intros i _. rewrite pe_even, pe_odd.
    rewrite <- (sin2_cos2 (pos * omega (INR i) (INR (2 * S n)))). unfold Rsqr. ring.
Qed.

(* ---------- Theorem (dot product): <PE(pos), PE(pos+k)> depends on k only. ---------- *)

Theorem pe_dot : forall (n : nat) (pos k : R),
  sum_f_R0 (fun j => pe (2 * S n) pos j * pe (2 * S n) (pos + k) j) (pred (2 * S n)) =
  sum_f_R0 (fun i => cos (k * omega (INR i) (INR (2 * S n)))) n.
Proof.
  intros n pos k. replace (pred (2 * S n)) with (S (2 * n)) by lia.
  rewrite sum_pairs. apply sum_eq. intros i _.
  rewrite pe_even, pe_even, pe_odd, pe_odd.
  set (w := omega (INR i) (INR (2 * S n))).
  replace (k * w) with ((pos + k) * w - pos * w) by ring.
  rewrite cos_minus. ring.
Qed.

Theorem pe_dot_even : forall (n : nat) (pos k : R),
  sum_f_R0 (fun j => pe (2 * S n) pos j * pe (2 * S n) (pos + k) j) (pred (2 * S n)) =
  sum_f_R0 (fun j => pe (2 * S n) pos j * pe (2 * S n) (pos - k) j) (pred (2 * S n)).
Proof.
  intros n pos k. unfold Rminus. rewrite pe_dot, pe_dot. apply sum_eq. intros i _.
  rewrite Ropp_mult_distr_l_reverse, cos_neg. reflexivity.
Qed.

(* ---------- Theorem (unique): distinct integer positions get distinct encodings. ---------- *)

Lemma omega_0 : forall d, omega 0 d = 1.
Proof.
  intro d. unfold omega. replace (- (2 * 0) / d) with 0 by (unfold Rdiv; ring).
  apply Rpower_O. lra.
Qed.

Lemma pe_0 : forall d pos, pe d pos 0 = sin pos.
Proof. intros. unfold pe. simpl Nat.even. simpl Nat.div2. rewrite omega_0, Rmult_1_r. reflexivity. Qed.

Lemma pe_1 : forall d pos, pe d pos 1 = cos pos.
Proof. intros. unfold pe. simpl Nat.even. simpl Nat.div2. rewrite omega_0, Rmult_1_r. reflexivity. Qed.

(* The core: if p - q is no nonzero integer multiple of PI, pair 0 already tells p from q. *)
Lemma pe_unique_at : forall (d : nat) (p q : Z), p <> q ->
  (forall m : Z, m <> 0%Z -> IZR (p - q) <> IZR m * PI) ->
  pe d (IZR p) 0 <> pe d (IZR q) 0 \/ pe d (IZR p) 1 <> pe d (IZR q) 1.
Proof.
  intros d p q Hpq Hpi. rewrite !pe_0, !pe_1.
  destruct (Req_dec (sin (IZR p)) (sin (IZR q))) as [Hs | Hs]; [right | left; exact Hs].
  intro Hc.
  assert (Hsin : sin (IZR (p - q)) = 0).
  { rewrite minus_IZR, sin_minus, Hs, Hc. ring. }
  destruct (sin_eq_0_0 _ Hsin) as [m Hm].
  destruct (Z.eq_dec m 0) as [-> | Hm0].
  - apply Hpq. apply Zminus_eq. apply eq_IZR. rewrite Hm. ring.
  - exact (Hpi m Hm0 Hm).
Qed.

Theorem pe_unique : (forall n m : Z, m <> 0%Z -> IZR n <> IZR m * PI) ->
  forall (d : nat) (p q : Z), p <> q ->
  pe d (IZR p) 0 <> pe d (IZR q) 0 \/ pe d (IZR p) 1 <> pe d (IZR q) 1.
Proof. intros Hpi d p q Hpq. apply pe_unique_at; [exact Hpq | intros m; apply Hpi]. Qed.

(* PI is irrational: Niven's proof, in PiIrrational.v. *)
Theorem pi_irrational : forall n m : Z, m <> 0%Z -> IZR n <> IZR m * PI.
Proof. exact PiIrrational.pi_irrational. Qed.

Theorem pe_unique_int : forall (d : nat) (p q : Z), p <> q ->
  pe d (IZR p) 0 <> pe d (IZR q) 0 \/ pe d (IZR p) 1 <> pe d (IZR q) 1.
Proof. exact (pe_unique pi_irrational). Qed.

(* ---------- Theorem (group): the pair rotations compose, invert, and are orthogonal. ---------- *)

Theorem rotation_compose : forall a b v, rot a (rot b v) = rot (a + b) v.
Proof.
  intros a b [x y]. unfold rot. simpl. rewrite sin_plus, cos_plus. f_equal; ring.
Qed.

Theorem rotation_inverse : forall a v, rot (- a) (rot a v) = v.
Proof.
  intros a [x y]. rewrite rotation_compose, Rplus_opp_l. unfold rot. simpl.
  rewrite sin_0, cos_0. f_equal; ring.
Qed.

Theorem rotation_preserves_dot : forall t u v,
  fst (rot t u) * fst (rot t v) + snd (rot t u) * snd (rot t v) = fst u * fst v + snd u * snd v.
Proof.
  intros t [x1 y1] [x2 y2]. unfold rot. simpl.
  assert (H1 : sin t ^ 2 + cos t ^ 2 = 1) by (rewrite <- (sin2_cos2 t); unfold Rsqr; ring).
  transitivity ((sin t ^ 2 + cos t ^ 2) * (x1 * x2 + y1 * y2)); [ring |].
  rewrite H1. ring.
Qed.

Theorem rotation_preserves_norm : forall t v,
  fst (rot t v) ^ 2 + snd (rot t v) ^ 2 = fst v ^ 2 + snd v ^ 2.
Proof. intros t v. rewrite <- !Rsqr_pow2. unfold Rsqr. apply rotation_preserves_dot. Qed.

(* ---------- Theorem (rope): the rotated query-key score depends only on m - p. ---------- *)

Theorem rope_relative : forall (p m t : R) (q kk : R * R),
  fst (rot (p * t) q) * fst (rot (m * t) kk) + snd (rot (p * t) q) * snd (rot (m * t) kk) =
  fst q * fst (rot ((m - p) * t) kk) + snd q * snd (rot ((m - p) * t) kk).
Proof.
  intros p m t q kk.
  replace (rot (m * t) kk) with (rot (p * t) (rot ((m - p) * t) kk)).
  - apply rotation_preserves_dot.
  - rewrite rotation_compose. f_equal. ring.
Qed.

(* ---------- Theorem (group), whole vectors: shift maps compose, invert, are orthogonal. ---------- *)

Theorem shift_compose : forall d j k v i, shift d j (shift d k v) i = shift d (j + k) v i.
Proof.
  intros d j k v i. destruct (Nat.Even_or_Odd i) as [[m ->] | [m ->]].
  - rewrite !shift_even, shift_odd, Rmult_plus_distr_r, cos_plus, sin_plus. ring.
  - rewrite Nat.add_1_r, !shift_odd, shift_even, Rmult_plus_distr_r, cos_plus, sin_plus. ring.
Qed.

Theorem shift_inverse : forall d k v i, shift d (- k) (shift d k v) i = v i.
Proof.
  intros d k v i. rewrite shift_compose, Rplus_opp_l.
  destruct (Nat.Even_or_Odd i) as [[m ->] | [m ->]].
  - rewrite shift_even, Rmult_0_l, cos_0, sin_0. ring.
  - rewrite Nat.add_1_r, shift_odd, Rmult_0_l, cos_0, sin_0. ring.
Qed.

Theorem shift_orthogonal : forall n k u v,
  sum_f_R0 (fun j => shift (2 * S n) k u j * shift (2 * S n) k v j) (pred (2 * S n)) =
  sum_f_R0 (fun j => u j * v j) (pred (2 * S n)).
Proof.
  intros n k u v. replace (pred (2 * S n)) with (S (2 * n)) by lia.
  rewrite !sum_pairs. apply sum_eq. intros i _. cbv beta. rewrite !shift_even, !shift_odd.
  set (w := k * omega (INR i) (INR (2 * S n))).
  assert (H1 : sin w ^ 2 + cos w ^ 2 = 1) by (rewrite <- (sin2_cos2 w); unfold Rsqr; ring).
  transitivity ((sin w ^ 2 + cos w ^ 2) *
    (u (2 * i)%nat * v (2 * i)%nat + u (S (2 * i)) * v (S (2 * i)))); [ring |].
  rewrite H1. ring.
Qed.

(* ---------- Theorem (rope), whole vectors: the score depends only on m - p. ---------- *)

Theorem rope_vector : forall n p m q u,
  sum_f_R0 (fun j => shift (2 * S n) p q j * shift (2 * S n) m u j) (pred (2 * S n)) =
  sum_f_R0 (fun j => q j * shift (2 * S n) (m - p) u j) (pred (2 * S n)).
Proof.
  intros n p m q u. rewrite <- (shift_orthogonal n p q (shift (2 * S n) (m - p) u)).
  apply sum_eq. intros j _. rewrite shift_compose. do 3 f_equal. ring.
Qed.

(* ---------- Theorem (frequencies): each frequency is the last times 10000^(-2/d). ---------- *)

Lemma omega_pos : forall i d, 0 < omega i d.
Proof. intros. unfold omega, Rpower. apply exp_pos. Qed.

Theorem omega_succ : forall i d, d <> 0 ->
  omega (i + 1) d = Rpower 10000 (- 2 / d) * omega i d.
Proof.
  intros i d Hd. unfold omega. rewrite <- Rpower_plus. f_equal. field. exact Hd.
Qed.

Theorem omega_decreasing : forall i d, 0 < d -> omega (i + 1) d < omega i d.
Proof.
  intros i d Hd. rewrite omega_succ by lra.
  rewrite <- (Rmult_1_l (omega i d)) at 2. apply Rmult_lt_compat_r; [apply omega_pos |].
  rewrite <- (Rpower_O 10000) by lra. apply Rpower_lt; [lra |].
  assert (Hinv : 0 < / d) by (apply Rinv_0_lt_compat; exact Hd).
  unfold Rdiv. lra.
Qed.

Theorem pe_period : forall d pos j,
  pe d (pos + 2 * PI / omega (INR (Nat.div2 j)) (INR d)) j = pe d pos j.
Proof.
  intros d pos j. unfold pe.
  assert (Hw := omega_pos (INR (Nat.div2 j)) (INR d)).
  set (w := omega (INR (Nat.div2 j)) (INR d)) in *.
  replace ((pos + 2 * PI / w) * w) with (pos * w + 2 * PI) by (field; lra).
  destruct (Nat.even j); [rewrite sin_plus | rewrite cos_plus]; rewrite sin_2PI, cos_2PI; ring.
Qed.

(* ---------- Theorem (shift_maps): the raw index and a lone sine have no linear map. ---------- *)

Theorem raw_index_no_linear_shift : forall k, k <> 0 ->
  ~ (exists a, forall pos, a * pos = pos + k).
Proof. intros k Hk [a H]. specialize (H 0). lra. Qed.

Theorem lone_sine_no_linear_shift : forall k, sin k <> 0 ->
  ~ (exists a, forall pos, a * sin pos = sin (pos + k)).
Proof.
  intros k Hk [a H]. specialize (H 0). rewrite sin_0, Rplus_0_l in H. lra.
Qed.

(* ---------- Theorem (similarity): the ramp's similarity depends on the position. ---------- *)

Theorem ramp_similarity_depends_on_p : forall L k, 0 < L ->
  ~ (exists c, forall p, (p / L) * ((p + k) / L) = c).
Proof.
  intros L k HL [c H].
  (* The second difference at 0 with step L is 2, where a constant's is 0. *)
  assert (E : (L / L) * ((L + k) / L) + (- L / L) * ((- L + k) / L)
              - 2 * ((0 / L) * ((0 + k) / L)) = 2) by (field; lra).
  rewrite !H in E. lra.
Qed.

(* ---------- Theorem (layouts): the concatenated [sin | cos] layout is a permutation of the
   interleaved one, and its shift map is the conjugated one, [[C, S], [-S, C]]. ---------- *)

Definition pe_concat (n : nat) (pos : R) (j : nat) : R :=
  if Nat.ltb j (S n) then sin (pos * omega (INR j) (INR (2 * S n)))
  else cos (pos * omega (INR (j - S n)) (INR (2 * S n))).
Definition concat_index (h j : nat) : nat := if Nat.ltb j h then (2 * j)%nat else S (2 * (j - h)).
Definition to_concat (h i : nat) : nat := if Nat.even i then Nat.div2 i else (h + Nat.div2 i)%nat.
Definition shift_concat (n : nat) (k : R) (v : nat -> R) (j : nat) : R :=
  shift (2 * S n) k (fun i => v (to_concat (S n) i)) (concat_index (S n) j).

Lemma to_concat_even : forall h m, to_concat h (2 * m) = m.
Proof. intros. unfold to_concat. rewrite even_double, Nat.div2_double. reflexivity. Qed.

Lemma to_concat_odd : forall h m, to_concat h (S (2 * m)) = (h + m)%nat.
Proof. intros. unfold to_concat. rewrite even_succ_double, Nat.div2_succ_double. reflexivity. Qed.

Theorem concat_perm : forall h j : nat, (j < 2 * h)%nat ->
  (concat_index h j < 2 * h)%nat /\ (to_concat h j < 2 * h)%nat /\
  to_concat h (concat_index h j) = j /\ concat_index h (to_concat h j) = j.
Proof.
  intros h j Hj. split; [| split; [| split]].
  - unfold concat_index. destruct (Nat.ltb_spec j h); lia.
  - destruct (Nat.Even_or_Odd j) as [[m ->] | [m ->]].
    + rewrite to_concat_even. lia.
    + rewrite Nat.add_1_r, to_concat_odd. lia.
  - unfold concat_index. destruct (Nat.ltb_spec j h).
    + apply to_concat_even.
    + rewrite to_concat_odd. lia.
  - destruct (Nat.Even_or_Odd j) as [[m ->] | [m ->]].
    + rewrite to_concat_even. unfold concat_index. destruct (Nat.ltb_spec m h); lia.
    + rewrite Nat.add_1_r, to_concat_odd. unfold concat_index.
      destruct (Nat.ltb_spec (h + m) h); lia.
Qed.

Theorem pe_concat_perm : forall (n : nat) (pos : R) (j : nat),
  pe_concat n pos j = pe (2 * S n) pos (concat_index (S n) j).
Proof.
  intros n pos j. unfold pe_concat, concat_index.
  destruct (Nat.ltb j (S n)); [rewrite pe_even | rewrite pe_odd]; reflexivity.
Qed.

Theorem shift_concat_blocks : forall (n : nat) (k : R) (v : nat -> R) (j : nat),
  shift_concat n k v j =
  if Nat.ltb j (S n) then
    cos (k * omega (INR j) (INR (2 * S n))) * v j +
    sin (k * omega (INR j) (INR (2 * S n))) * v (S n + j)%nat
  else
    - sin (k * omega (INR (j - S n)) (INR (2 * S n))) * v (j - S n)%nat +
    cos (k * omega (INR (j - S n)) (INR (2 * S n))) * v j.
Proof.
  intros n k v j. unfold shift_concat, concat_index.
  destruct (Nat.ltb_spec j (S n)).
  - rewrite shift_even. cbv beta. rewrite to_concat_even, to_concat_odd. reflexivity.
  - rewrite shift_odd. cbv beta. rewrite to_concat_even, to_concat_odd.
    replace (S n + (j - S n))%nat with j by lia. reflexivity.
Qed.

Theorem pe_concat_shift : forall (n : nat) (pos k : R) (j : nat), (j < 2 * S n)%nat ->
  shift_concat n k (pe_concat n pos) j = pe_concat n (pos + k) j.
Proof.
  intros n pos k j Hj. rewrite shift_concat_blocks. unfold pe_concat.
  destruct (Nat.ltb_spec j (S n)).
  - replace (Nat.ltb (S n + j) (S n)) with false by (symmetry; apply Nat.ltb_ge; lia).
    replace (S n + j - S n)%nat with j by lia.
    apply rotation_pair.
  - replace (Nat.ltb (j - S n) (S n)) with true by (symmetry; apply Nat.ltb_lt; lia).
    apply rotation_pair.
Qed.

(* ---------- RoPE with any per-pair frequencies (round 3): every scaling method is covered. ---------- *)

(* RoPE at position m with per-pair frequencies theta (any schedule), interleaved layout: pair i on
   components (2i, 2i + 1), rotated by G(m theta_i) = [[cos, -sin], [sin, cos]]. *)
Definition rope (theta : nat -> R) (m : R) (v : nat -> R) (j : nat) : R :=
  let t := m * theta (Nat.div2 j) in
  if Nat.even j then cos t * v j - sin t * v (S j)
  else sin t * v (pred j) + cos t * v j.

(* The same in the rotate_half layout of h pairs: pair i on components (i, h + i). *)
Definition rope_half (h : nat) (theta : nat -> R) (m : R) (v : nat -> R) (j : nat) : R :=
  if Nat.ltb j h then cos (m * theta j) * v j - sin (m * theta j) * v (h + j)%nat
  else sin (m * theta (j - h)%nat) * v (j - h)%nat + cos (m * theta (j - h)%nat) * v j.

Lemma rope_even : forall theta m v i, rope theta m v (2 * i) =
  cos (m * theta i) * v (2 * i)%nat - sin (m * theta i) * v (S (2 * i)).
Proof. intros. unfold rope. rewrite even_double, Nat.div2_double. reflexivity. Qed.

Lemma rope_odd : forall theta m v i, rope theta m v (S (2 * i)) =
  sin (m * theta i) * v (2 * i)%nat + cos (m * theta i) * v (S (2 * i)).
Proof.
  intros. unfold rope. rewrite even_succ_double, Nat.div2_succ_double, Nat.pred_succ. reflexivity.
Qed.

(* A sum whose terms vanish everywhere but at i0 is its term at i0. *)
Lemma sum_single : forall (f : nat -> R) (n i0 : nat), (i0 <= n)%nat ->
  (forall i : nat, (i <= n)%nat -> i <> i0 -> f i = 0) -> sum_f_R0 f n = f i0.
Proof.
  intros f n. induction n as [|n IH]; intros i0 Hi0 Hzero.
  - replace i0 with 0%nat by lia. reflexivity.
  - rewrite tech5. destruct (Nat.eq_dec i0 (S n)) as [-> | Hne].
    + rewrite (sum_eq _ (fun _ => 0)), sum_cte; [ring |].
      intros i Hi. apply Hzero; lia.
    + rewrite (IH i0), (Hzero (S n)); [ring | lia | lia | lia |].
      intros i Hi Hne'. apply Hzero; lia.
Qed.

Theorem shift_block_diagonal :
  forall (n : nat) (k : R), exists M : nat -> nat -> R,
  (forall j l : nat, Nat.div2 j <> Nat.div2 l -> M j l = 0) /\
  (forall i : nat, (i <= n)%nat ->
     M (2 * i)%nat (2 * i)%nat = cos (k * omega (INR i) (INR (2 * S n))) /\
     M (2 * i)%nat (S (2 * i)) = sin (k * omega (INR i) (INR (2 * S n))) /\
     M (S (2 * i)) (2 * i)%nat = - sin (k * omega (INR i) (INR (2 * S n))) /\
     M (S (2 * i)) (S (2 * i)) = cos (k * omega (INR i) (INR (2 * S n)))) /\
  (forall (v : nat -> R) (j : nat), (j < 2 * S n)%nat ->
     sum_f_R0 (fun l => M j l * v l) (Nat.pred (2 * S n)) = shift (2 * S n) k v j) /\
  (forall (pos : R) (j : nat), (j < 2 * S n)%nat ->
     sum_f_R0 (fun l => M j l * pe (2 * S n) pos l) (Nat.pred (2 * S n)) = pe (2 * S n) (pos + k) j).
Proof.
  intros n k.
  set (w := fun j : nat => k * omega (INR (Nat.div2 j)) (INR (2 * S n))).
  set (M := fun j l : nat =>
    if Nat.eqb (Nat.div2 j) (Nat.div2 l) then
      (if Nat.even j then (if Nat.even l then cos (w j) else sin (w j))
       else (if Nat.even l then - sin (w j) else cos (w j)))
    else 0).
  assert (Hoff : forall j l : nat, Nat.div2 j <> Nat.div2 l -> M j l = 0).
  { intros j l Hjl. unfold M. apply Nat.eqb_neq in Hjl. rewrite Hjl. reflexivity. }
  assert (Hrow : forall (v : nat -> R) (j : nat), (j < 2 * S n)%nat ->
     sum_f_R0 (fun l => M j l * v l) (Nat.pred (2 * S n)) = shift (2 * S n) k v j).
  { intros v j Hj. replace (Nat.pred (2 * S n)) with (S (2 * n)) by lia.
    rewrite sum_pairs. rewrite (sum_single _ n (Nat.div2 j)).
    - cbv beta. unfold M. rewrite Nat.div2_double, Nat.div2_succ_double, Nat.eqb_refl.
      rewrite even_double, even_succ_double.
      destruct (Nat.Even_or_Odd j) as [[i ->] | [i ->]].
      + rewrite Nat.div2_double, even_double, shift_even. unfold w.
        rewrite Nat.div2_double. ring.
      + rewrite Nat.add_1_r, Nat.div2_succ_double, even_succ_double, shift_odd. unfold w.
        rewrite Nat.div2_succ_double. ring.
    - destruct (Nat.Even_or_Odd j) as [[i ->] | [i ->]].
      + rewrite Nat.div2_double. lia.
      + rewrite Nat.add_1_r, Nat.div2_succ_double. lia.
    - intros i _ Hi. cbv beta.
      rewrite (Hoff j (2 * i)%nat), (Hoff j (S (2 * i))); [ring | |];
        rewrite ?Nat.div2_double, ?Nat.div2_succ_double; intro; apply Hi; symmetry; assumption. }
  exists M. split; [exact Hoff | split; [| split; [exact Hrow |]]].
  - intros i _. unfold M, w.
    rewrite Nat.div2_double, Nat.div2_succ_double, Nat.eqb_refl, even_double, even_succ_double.
    repeat split.
  - intros pos j Hj. rewrite Hrow by exact Hj. apply rotation_vector.
Qed.

Theorem linear_feature_no_linear_shift :
  forall (n : nat) (c : nat -> R) (k : R), k <> 0 -> (exists j, (j <= n)%nat /\ c j <> 0) ->
  ~ (exists M : nat -> nat -> R, forall (pos : R) (j : nat), (j <= n)%nat ->
       sum_f_R0 (fun l => M j l * (pos * c l)) n = (pos + k) * c j).
Proof.
  intros n c k Hk [j [Hj Hc]] [M HM]. specialize (HM 0 j Hj).
  rewrite (sum_eq _ (fun _ => 0)), sum_cte in HM by (intros; ring).
  apply Hc. apply (Rmult_eq_reg_l k); [| exact Hk]. lra.
Qed.

Theorem rope_compose_any_freq :
  forall (theta : nat -> R) (a b : R) (v : nat -> R) (j : nat),
  rope theta a (rope theta b v) j = rope theta (a + b) v j.
Proof.
  intros theta a b v j. destruct (Nat.Even_or_Odd j) as [[i ->] | [i ->]].
  - rewrite !rope_even, rope_odd, Rmult_plus_distr_r, cos_plus, sin_plus. ring.
  - rewrite Nat.add_1_r, !rope_odd, rope_even, Rmult_plus_distr_r, cos_plus, sin_plus. ring.
Qed.

Lemma rope_orthogonal : forall (theta : nat -> R) (n : nat) (m : R) (u v : nat -> R),
  sum_f_R0 (fun j => rope theta m u j * rope theta m v j) (Nat.pred (2 * S n)) =
  sum_f_R0 (fun j => u j * v j) (Nat.pred (2 * S n)).
Proof.
  intros theta n m u v. replace (Nat.pred (2 * S n)) with (S (2 * n)) by lia.
  rewrite !sum_pairs. apply sum_eq. intros i _. cbv beta. rewrite !rope_even, !rope_odd.
  set (t := m * theta i).
  assert (H1 : sin t ^ 2 + cos t ^ 2 = 1) by (rewrite <- (sin2_cos2 t); unfold Rsqr; ring).
  transitivity ((sin t ^ 2 + cos t ^ 2) *
    (u (2 * i)%nat * v (2 * i)%nat + u (S (2 * i)) * v (S (2 * i)))); [ring |].
  rewrite H1. ring.
Qed.

Theorem rope_relative_any_freq :
  forall (theta : nat -> R) (n : nat) (p m : R) (q u : nat -> R),
  sum_f_R0 (fun j => rope theta p q j * rope theta m u j) (Nat.pred (2 * S n)) =
  sum_f_R0 (fun j => q j * rope theta (m - p) u j) (Nat.pred (2 * S n)).
Proof.
  intros theta n p m q u. rewrite <- (rope_orthogonal theta n p q (rope theta (m - p) u)).
  apply sum_eq. intros j _. rewrite rope_compose_any_freq. do 3 f_equal. ring.
Qed.

Theorem rope_layout_conversion :
  forall (theta : nat -> R) (n : nat) (m : R) (x : nat -> R) (j : nat), (j < 2 * S n)%nat ->
  rope_half (S n) theta m (fun i => x (concat_index (S n) i)) j = rope theta m x (concat_index (S n) j).
Proof.
  intros theta n m x j Hj. unfold rope_half, concat_index.
  destruct (Nat.ltb_spec j (S n)).
  - replace (Nat.ltb (S n + j) (S n)) with false by (symmetry; apply Nat.ltb_ge; lia).
    replace (S n + j - S n)%nat with j by lia.
    rewrite rope_even. reflexivity.
  - replace (Nat.ltb (j - S n) (S n)) with true by (symmetry; apply Nat.ltb_lt; lia).
    rewrite rope_odd. reflexivity.
Qed.

(* The rotate_half layout on its own: pair i on components (i, h + i). *)

Lemma rope_half_low : forall h theta m v j, (j < h)%nat ->
  rope_half h theta m v j = cos (m * theta j) * v j - sin (m * theta j) * v (h + j)%nat.
Proof. intros. unfold rope_half. destruct (Nat.ltb_spec j h); [reflexivity | lia]. Qed.

Lemma rope_half_high : forall h theta m v i, (i < h)%nat ->
  rope_half h theta m v (h + i) = sin (m * theta i) * v i + cos (m * theta i) * v (h + i)%nat.
Proof.
  intros. unfold rope_half. destruct (Nat.ltb_spec (h + i) h); [lia |].
  replace (h + i - h)%nat with i by lia. reflexivity.
Qed.

Theorem rope_half_compose_any_freq :
  forall (h : nat) (theta : nat -> R) (a b : R) (v : nat -> R) (j : nat), (j < 2 * h)%nat ->
  rope_half h theta a (rope_half h theta b v) j = rope_half h theta (a + b) v j.
Proof.
  intros h theta a b v j Hj. destruct (Nat.ltb_spec j h) as [Hlo | Hhi].
  - rewrite !rope_half_low, rope_half_high by lia.
    rewrite rope_half_low by lia. rewrite Rmult_plus_distr_r, cos_plus, sin_plus. ring.
  - replace j with (h + (j - h))%nat by lia.
    rewrite !rope_half_high by lia. rewrite rope_half_low by lia.
    rewrite Rmult_plus_distr_r, cos_plus, sin_plus. ring.
Qed.

(* A sum over the 2h components of the rotate_half layout, regrouped pair by pair: (i, h + i). *)
Lemma sum_halves : forall (f : nat -> R) (n : nat),
  sum_f_R0 f (Nat.pred (2 * S n)) = sum_f_R0 (fun i => f i + f (S n + i)%nat) n.
Proof.
  intros f n. rewrite sum_plus.
  replace (Nat.pred (2 * S n)) with (S n + n)%nat by lia.
  rewrite (tech2 f n (S n + n)) by lia.
  replace (S n + n - S n)%nat with n by lia. reflexivity.
Qed.

Theorem rope_half_relative_any_freq :
  forall (theta : nat -> R) (n : nat) (p m : R) (q u : nat -> R),
  sum_f_R0 (fun j => rope_half (S n) theta p q j * rope_half (S n) theta m u j) (Nat.pred (2 * S n)) =
  sum_f_R0 (fun j => q j * rope_half (S n) theta (m - p) u j) (Nat.pred (2 * S n)).
Proof.
  intros theta n p m q u. rewrite !sum_halves. apply sum_eq. intros i Hi. cbv beta.
  rewrite !rope_half_high by lia. rewrite !rope_half_low by lia.
  replace (m * theta i) with (p * theta i + (m - p) * theta i) by ring.
  set (x := p * theta i). set (y := (m - p) * theta i).
  rewrite cos_plus, sin_plus.
  assert (H1 : sin x ^ 2 + cos x ^ 2 = 1) by (rewrite <- (sin2_cos2 x); unfold Rsqr; ring).
  transitivity ((sin x ^ 2 + cos x ^ 2) *
    (q i * (cos y * u i - sin y * u (S n + i)%nat) +
     q (S n + i)%nat * (sin y * u i + cos y * u (S n + i)%nat))); [ring |].
  rewrite H1. ring.
Qed.

(* Abel's summation by parts. *)
Lemma abel_summation : forall (h s : nat -> R) (n : nat),
  sum_f_R0 (fun i => h i * (s (S i) - s i)) n =
  h (S n) * s (S n) - h 0%nat * s 0%nat - sum_f_R0 (fun i => (h (S i) - h i) * s (S i)) n.
Proof.
  intros h s n. induction n as [|n IH]; simpl; [ring |]. rewrite IH. ring.
Qed.

Theorem rope_decay_bound :
  forall (h s : nat -> R) (n : nat) (M : R), s 0%nat = 0 -> h (S n) = 0 ->
  (forall i : nat, (i <= n)%nat -> Rabs (h (S i) - h i) <= M) ->
  Rabs (sum_f_R0 (fun i => h i * (s (S i) - s i)) n) <= M * sum_f_R0 (fun i => Rabs (s (S i))) n.
Proof.
  intros h s n M Hs0 Hhn HM. rewrite abel_summation, Hs0, Hhn.
  replace (0 * s (S n) - h 0%nat * 0 - sum_f_R0 (fun i => (h (S i) - h i) * s (S i)) n)
    with (- sum_f_R0 (fun i => (h (S i) - h i) * s (S i)) n) by ring.
  rewrite Rabs_Ropp, scal_sum.
  eapply Rle_trans; [apply sum_f_R0_triangle |].
  apply sum_Rle. intros i Hi. rewrite Rabs_mult, (Rmult_comm (Rabs (s (S i))) M).
  apply Rmult_le_compat_r; [apply Rabs_pos | exact (HM i Hi)].
Qed.

(* ---------- Floating point, in Flocq: round radix2 (FLT_exp emin prec) ZnearestE is the format's
   round-to-nearest-even (bf16: prec 8, emin -133; fp16: prec 11, emin -24). Imported last: its
   Ulp.pred would hide pred, and the ZArith it brings its Zpower.shift, over the definitions above. *)

From Flocq Require Import Core.

Theorem fp_integers_exact :
  forall (emin prec n : Z), (0 < prec)%Z -> (emin <= 0)%Z -> (Z.abs n < Z.pow 2 prec)%Z ->
  round radix2 (FLT_exp emin prec) ZnearestE (IZR n) = IZR n.
Proof.
  intros emin prec n Hprec Hemin Hn.
  assert (Hp : Prec_gt_0 prec) by exact Hprec.
  apply round_generic; [apply valid_rnd_N |].
  apply generic_format_FLT. apply (FLT_spec _ _ _ _ (Float radix2 n 0)).
  - unfold F2R. simpl. ring.
  - exact Hn.
  - exact Hemin.
Qed.

Theorem bf16_257 :
  round radix2 (FLT_exp (-133) 8) ZnearestE 257 = 256.
Proof.
  unfold round, F2R, scaled_mantissa, cexp. simpl.
  assert (Hmag : mag radix2 257 = 9%Z :> Z).
  { apply mag_unique. rewrite Rabs_pos_eq by lra. simpl. unfold Z.pow_pos. simpl. lra. }
  rewrite Hmag. unfold FLT_exp. simpl. unfold Z.pow_pos. simpl.
  assert (Hfl : Zfloor (257 * / 2) = 128%Z).
  { apply Zfloor_imp. simpl. lra. }
  unfold Znearest. rewrite Hfl.
  rewrite Rcompare_Eq by lra. simpl. lra.
Qed.
