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
   Only the standard library is used; the definitions above are the whole vocabulary. *)

Require Import Arith Lia Lra.
(* ZArith is left out on purpose: its Zpower.shift would hide the shift defined above. *)

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
