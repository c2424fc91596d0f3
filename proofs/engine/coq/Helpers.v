(* What the generated modules share: small matrices as functions of their row and column, the
   Pythagorean identity and the periods in the form the link scripts rewrite with, the
   irrationality consequences the nonzero facts use, and the block-diagonal vocabulary of the
   whole-vector facts. Hand-written; every generated module requires it beside Headline. *)

Require Import Reals Lra Lia List FunctionalExtensionality.
Import ListNotations.
(* ZArith is not imported (its Zpower.shift would hide Headline's shift): Z names are qualified. *)
Require Import PeProofs.Headline.
Open Scope R_scope.

(* ---------- Matrices: a matrix is its entries, equal when every entry is. ---------- *)

Definition mat := nat -> nat -> R.

(* The n-th element of a list, 0 past its end. *)
Fixpoint entry (l : list R) (n : nat) : R :=
  match l with
  | [] => 0
  | x :: l' => match n with O => x | S m => entry l' m end
  end.

Fixpoint row (L : list (list R)) (n : nat) : list R :=
  match L with
  | [] => []
  | r :: L' => match n with O => r | S m => row L' m end
  end.

(* The matrix written row by row, 0 outside: rows [[a; b]; [c; d]]. *)
Definition rows (L : list (list R)) : mat := fun i j => entry (row L i) j.

(* The column vector [a; b; ...]. *)
Definition col (v : list R) : mat := fun i j => match j with O => entry v i | S _ => 0 end.

(* The product of A (with n columns) and B (with n rows). *)
Definition mmul (n : nat) (A B : mat) : mat :=
  fun i j => sum_f_R0 (fun k => A i k * B k j) (pred n).

Definition mtr (A : mat) : mat := fun i j => A j i.

Definition madd (A B : mat) : mat := fun i j => A i j + B i j.

(* c·A, a number times a matrix. *)
Definition mscale (c : R) (A : mat) : mat := fun i j => c * A i j.

(* The module's rotation R(t) = [[cos t, sin t], [-sin t, cos t]]. *)
Definition rot_mat (t : R) : mat := rows [[cos t; sin t]; [- sin t; cos t]].

Lemma mat_ext : forall A B : mat, (forall i j, A i j = B i j) -> A = B.
Proof.
  intros A B H. apply functional_extensionality. intro i.
  apply functional_extensionality. intro j. apply H.
Qed.

(* Computes the entries of products, transposes and literals once the indices are numbers. *)
Tactic Notation "mat_unfold" :=
  cbv beta delta [rows col mmul mtr madd mscale rot_mat]; cbn [row entry sum_f_R0 pred].
Tactic Notation "mat_unfold" "in" hyp(H) :=
  cbv beta delta [rows col mmul mtr madd mscale rot_mat] in H;
  cbn [row entry sum_f_R0 pred] in H.

(* ---------- Complex numbers, as pairs of reals. ---------- *)

(* z = Re z + i Im z, with the operations Meta's complex form of RoPE writes. *)
Record cplx := cplx_of { Re : R; Im : R }.
Definition creal (x : R) : cplx := cplx_of x 0.
Definition ci : cplx := cplx_of 0 1.
Definition cadd (a b : cplx) : cplx := cplx_of (Re a + Re b) (Im a + Im b).
Definition cmul (a b : cplx) : cplx :=
  cplx_of (Re a * Re b - Im a * Im b) (Re a * Im b + Im a * Re b).
Definition cconj (a : cplx) : cplx := cplx_of (Re a) (- Im a).
(* The complex exponential: e^(x + iy) = e^x (cos y + i sin y). *)
Definition cexp (z : cplx) : cplx := cplx_of (exp (Re z) * cos (Im z)) (exp (Re z) * sin (Im z)).

(* Euler's formula, e^(ix) = cos x + i sin x, from the exponential's definition. *)
Lemma Euler : forall x : R, cexp (cmul (creal x) ci) = cadd (creal (cos x)) (cmul (creal (sin x)) ci).
Proof.
  intro x. unfold cexp, cmul, cadd, ci, creal. cbn [Re Im].
  replace (x * 0 - 0 * 1) with 0 by ring. replace (x * 1 + 0 * 0) with x by ring.
  rewrite exp_0. f_equal; ring.
Qed.

(* Computes real and imaginary parts once Euler's formula has been applied. *)
Tactic Notation "complex_parts" :=
  rewrite ?Euler; cbv beta delta [cadd cmul cconj creal ci]; cbn [Re Im].
Tactic Notation "complex_parts" "in" hyp(H) :=
  rewrite ?Euler in H; cbv beta delta [cadd cmul cconj creal ci] in H; cbn [Re Im] in H.

(* ---------- The identities the rules rewrite with. ---------- *)

(* Pythagorean identity, in powers. *)
Lemma pyth : forall x : R, sin x ^ 2 + cos x ^ 2 = 1.
Proof. intro x. rewrite <- (sin2_cos2 x). unfold Rsqr. ring. Qed.

Lemma IZR_nat_or_opp : forall n : Z, exists m : nat, IZR n = INR m \/ IZR n = - INR m.
Proof.
  intro n. exists (Z.abs_nat n). destruct n as [|p|p]; simpl Z.abs_nat.
  - left. reflexivity.
  - left. rewrite INR_IZR_INZ, positive_nat_Z. reflexivity.
  - right. rewrite INR_IZR_INZ, positive_nat_Z, <- opp_IZR. reflexivity.
Qed.

(* Period 2PI, for every integer multiple. *)
Lemma sin_period_Z : forall (x : R) (n : Z), sin (x + 2 * IZR n * PI) = sin x.
Proof.
  intros x n. destruct (IZR_nat_or_opp n) as [m [E | E]]; rewrite E.
  - apply sin_period.
  - rewrite <- (sin_period (x + 2 * - INR m * PI) m). f_equal. ring.
Qed.

Lemma cos_period_Z : forall (x : R) (n : Z), cos (x + 2 * IZR n * PI) = cos x.
Proof.
  intros x n. destruct (IZR_nat_or_opp n) as [m [E | E]]; rewrite E.
  - apply cos_period.
  - rewrite <- (cos_period (x + 2 * - INR m * PI) m). f_equal. ring.
Qed.

(* Half period: sin (x + n PI) = (-1)^n sin x, cos likewise, for every integer n. *)
Lemma half_period_nat : forall (x : R) (m : nat),
  sin (x + INR m * PI) = (- 1) ^ m * sin x /\ cos (x + INR m * PI) = (- 1) ^ m * cos x.
Proof.
  intros x m. induction m as [|m [Hs Hc]].
  - simpl. rewrite Rmult_0_l, Rplus_0_r. split; ring.
  - rewrite S_INR. replace (x + (INR m + 1) * PI) with ((x + INR m * PI) + PI) by ring.
    rewrite (sin_plus (x + INR m * PI) PI), (cos_plus (x + INR m * PI) PI), Hs, Hc, sin_PI, cos_PI.
    simpl. split; ring.
Qed.

Lemma pow_neg1_sq : forall m : nat, (- 1) ^ m * (- 1) ^ m = 1.
Proof. intro m. rewrite <- Rpow_mult_distr. replace (- 1 * - 1) with 1 by ring. apply pow1. Qed.

Lemma sin_half_period : forall (x : R) (n : Z), sin (x + IZR n * PI) = (- 1) ^ Z.abs_nat n * sin x.
Proof.
  intros x n. destruct n as [|p|p]; simpl Z.abs_nat.
  - simpl. rewrite Rmult_0_l, Rplus_0_r. ring.
  - rewrite <- positive_nat_Z, <- INR_IZR_INZ. apply half_period_nat.
  - rewrite <- Pos2Z.opp_pos, opp_IZR, <- positive_nat_Z, <- INR_IZR_INZ.
    destruct (half_period_nat (x + - INR (Pos.to_nat p) * PI) (Pos.to_nat p)) as [H _].
    replace (x + - INR (Pos.to_nat p) * PI + INR (Pos.to_nat p) * PI) with x in H by ring.
    rewrite H, <- Rmult_assoc, pow_neg1_sq. ring.
Qed.

Lemma cos_half_period : forall (x : R) (n : Z), cos (x + IZR n * PI) = (- 1) ^ Z.abs_nat n * cos x.
Proof.
  intros x n. destruct n as [|p|p]; simpl Z.abs_nat.
  - simpl. rewrite Rmult_0_l, Rplus_0_r. ring.
  - rewrite <- positive_nat_Z, <- INR_IZR_INZ. apply half_period_nat.
  - rewrite <- Pos2Z.opp_pos, opp_IZR, <- positive_nat_Z, <- INR_IZR_INZ.
    destruct (half_period_nat (x + - INR (Pos.to_nat p) * PI) (Pos.to_nat p)) as [_ H].
    replace (x + - INR (Pos.to_nat p) * PI + INR (Pos.to_nat p) * PI) with x in H by ring.
    rewrite H, <- Rmult_assoc, pow_neg1_sq. ring.
Qed.

(* ---------- Side conditions. ---------- *)

Lemma omega_neq_0 : forall i d, omega i d <> 0.
Proof. intros. apply Rgt_not_eq, omega_pos. Qed.

Lemma Rpower_neq_0 : forall x y, Rpower x y <> 0.
Proof. intros. unfold Rpower. apply Rgt_not_eq, exp_pos. Qed.

Lemma Rpower_pos : forall x y, 0 < Rpower x y.
Proof. intros. unfold Rpower. apply exp_pos. Qed.

Lemma exp_neq_0 : forall x, exp x <> 0.
Proof. intro. apply Rgt_not_eq, exp_pos. Qed.

Lemma exp_at_0 : forall x, x = 0 -> exp x = 1.
Proof. intros x ->. apply exp_0. Qed.

(* b^0 = 1 for every real b (Rpower b 0 = exp (0 * ln b)). *)
Lemma Rpower_at_0 : forall b x, x = 0 -> Rpower b x = 1.
Proof. intros b x ->. unfold Rpower. rewrite Rmult_0_l. apply exp_0. Qed.

(* 1^y = 1 for every real y. *)
Lemma Rpower_1_base : forall y, Rpower 1 y = 1.
Proof. intro. unfold Rpower. rewrite ln_1, Rmult_0_r. apply exp_0. Qed.

(* sinh and cosh in the form the exponential form's scripts write: y is -x written otherwise. *)
Lemma sinh_exp : forall x y, y = - x -> sinh x = (exp x - exp y) / 2.
Proof. intros x y ->. reflexivity. Qed.

Lemma cosh_exp : forall x y, y = - x -> cosh x = (exp x + exp y) / 2.
Proof. intros x y ->. reflexivity. Qed.

Lemma sinh_nonneg : forall x, 0 <= x -> 0 <= sinh x.
Proof.
  intros x Hx. unfold sinh. apply Rmult_le_pos; [| lra].
  destruct (Rle_lt_or_eq_dec 0 x Hx) as [H | <-].
  - assert (exp (- x) < exp x) by (apply exp_increasing; lra). lra.
  - rewrite Ropp_0. lra.
Qed.

Lemma ln_pos : forall x, 1 < x -> 0 < ln x.
Proof. intros x Hx. rewrite <- ln_1. apply ln_increasing; lra. Qed.

(* Floor and ceiling: Rfloor x is the integer n with n <= x < n + 1 (up x is the integer z with
   x < z <= x + 1), Rceil x the integer n with n - 1 < x <= n. *)
Definition Rfloor (x : R) : R := IZR (up x) - 1.
Definition Rceil (x : R) : R := - Rfloor (- x).

Lemma Rfloor_at : forall (x v : R) (z : Z), IZR z = v -> v <= x < v + 1 -> Rfloor x = v.
Proof.
  intros x v z <- [H1 H2]. unfold Rfloor.
  rewrite <- (tech_up x (z + 1)); rewrite ?plus_IZR; simpl; lra.
Qed.

Lemma Rceil_at : forall (x v : R) (z : Z), IZR z = v -> v - 1 < x <= v -> Rceil x = v.
Proof.
  intros x v z Hz [H1 H2]. unfold Rceil.
  rewrite (Rfloor_at (- x) (- v) (- z)); [ring | rewrite opp_IZR, Hz; ring | lra].
Qed.

(* A power written through another power of the same base: b^s = b^(r + s) / b^r. *)
Lemma Rpower_split : forall b r s, Rpower b s = Rpower b (r + s) / Rpower b r.
Proof. intros. rewrite Rpower_plus. field. apply Rpower_neq_0. Qed.

Lemma INR_succ_neq_0 : forall n : nat, INR (S n) <> 0.
Proof. intro n. apply not_0_INR. discriminate. Qed.

Lemma INR_double_succ_neq_0 : forall n : nat, INR (2 * S n) <> 0.
Proof. intro n. apply not_0_INR. lia. Qed.

(* A side condition x <> 0 or 0 < x of field, from the hypotheses or what is always so. *)
Ltac side := repeat split; first
  [ assumption | apply omega_neq_0 | apply Rpower_neq_0 | apply Rpower_pos | apply exp_neq_0
  | apply exp_pos | apply INR_succ_neq_0 | apply INR_double_succ_neq_0 | apply PI_neq0 | lra
  | apply pow_nonzero; first [assumption | lra] ].

(* A natural number numeral as a real number: INR 8 = 8. *)
Ltac nat_numerals := rewrite ?INR_IZR_INZ; cbn [Z.of_nat Pos.of_succ_nat Pos.succ].

(* Two applications of one function are equal when their arguments are, by algebra (with
   INR 8 read as 8 where a size is written both ways). *)
Ltac args := f_equal; first [ring | field; side | nat_numerals; first [ring | field; side]].

(* Closes 0 <= x (and 0 < x) for x built from numbers, symbols whose signs the hypotheses give,
   squares, exponentials, real powers, sinh of what is >= 0, sums, products and quotients. *)
(* Even powers: x^(2m) >= 0, and > 0 when x <> 0. *)
Lemma pow_even_nonneg : forall (x : R) (n : nat), Nat.even n = true -> 0 <= x ^ n.
Proof.
  intros x n H. apply Nat.even_spec in H. destruct H as [m ->].
  rewrite pow_mult. apply pow_le. apply pow2_ge_0.
Qed.

Lemma pow_even_pos : forall (x : R) (n : nat), x <> 0 -> Nat.even n = true -> 0 < x ^ n.
Proof.
  intros x n Hx H. apply Nat.even_spec in H. destruct H as [m ->].
  rewrite pow_mult. apply pow_lt.
  destruct (Rle_lt_or_eq_dec 0 (x ^ 2) (pow2_ge_0 x)) as [Hlt | Heq]; [exact Hlt |].
  exfalso. exact (pow_nonzero x 2 Hx (eq_sym Heq)).
Qed.

Ltac nonneg_by_parts := first
  [ lra
  | apply pow2_ge_0
  | apply pow_even_nonneg; reflexivity
  | apply Rlt_le; pos_by_parts
  | apply Rplus_le_le_0_compat; nonneg_by_parts
  | apply Rmult_le_pos; nonneg_by_parts
  | apply sinh_nonneg; nonneg_by_parts
  | apply sqrt_pos
  | apply Rabs_pos
  | unfold Rdiv; apply Rmult_le_pos; [nonneg_by_parts | apply Rlt_le, Rinv_0_lt_compat; pos_by_parts] ]
with pos_by_parts := first
  [ lra
  | apply exp_pos
  | apply pow_lt; pos_by_parts
  | apply pow_even_pos;
    [first [assumption | apply Rgt_not_eq; lra | apply Rlt_not_eq; lra] | reflexivity]
  | apply Rpower_pos
  | apply Rmult_lt_0_compat; pos_by_parts
  | apply Rplus_lt_le_0_compat; [pos_by_parts | nonneg_by_parts]
  | apply Rplus_le_lt_0_compat; [nonneg_by_parts | pos_by_parts]
  | apply Rinv_0_lt_compat; pos_by_parts
  | unfold Rdiv; apply Rmult_lt_0_compat; [pos_by_parts | apply Rinv_0_lt_compat; pos_by_parts] ].

(* Closes x <> 0 like nonzero, with leaf for the factors the hypotheses do not settle. *)
Ltac nonzero_with leaf := unfold Rdiv; repeat match goal with
  | |- _ * _ <> 0 => apply Rmult_integral_contrapositive_currified
  | |- / _ <> 0 => apply Rinv_neq_0_compat
  | |- - _ <> 0 => apply Ropp_neq_0_compat
  | |- _ ^ _ <> 0 => apply pow_nonzero
  | |- IZR _ <> 0 => apply not_0_IZR
  end; first [assumption | lra | lia | leaf].

(* ---------- What PI's irrationality gives the nonzero facts. ---------- *)

Lemma int_minus_pi_multiple : forall a b : Z, b <> 0%Z -> IZR a - IZR b * PI <> 0.
Proof. intros a b Hb E. apply (pi_irrational a b Hb). lra. Qed.

(* cos n = 1 only at n = 0 among the integers: sin n would be 0, so n a multiple of PI. *)
Lemma cos_int_minus_1 : forall n : Z, n <> 0%Z -> cos (IZR n) - 1 <> 0.
Proof.
  intros n Hn E.
  assert (Hs : sin (IZR n) = 0).
  { assert (P := pyth (IZR n)). replace (cos (IZR n)) with 1 in P by lra.
    apply Rsqr_0_uniq. unfold Rsqr. lra. }
  destruct (sin_eq_0_0 _ Hs) as [m Hm].
  destruct (Z.eq_dec m 0) as [-> | Hm0].
  - apply Hn. apply eq_IZR. rewrite Hm. ring.
  - exact (pi_irrational n m Hm0 Hm).
Qed.

(* Closes x <> 0 for x a product, quotient, power or negation of factors that the hypotheses
   (or arithmetic) make nonzero. *)
Ltac nonzero := unfold Rdiv; repeat match goal with
  | |- _ * _ <> 0 => apply Rmult_integral_contrapositive_currified
  | |- / _ <> 0 => apply Rinv_neq_0_compat
  | |- - _ <> 0 => apply Ropp_neq_0_compat
  | |- _ ^ _ <> 0 => apply pow_nonzero
  | |- IZR _ <> 0 => apply not_0_IZR
  end; first [assumption | lra | lia].

(* ---------- Whole vectors at a concrete size, built from their 2-component blocks. ---------- *)

(* The vector whose pair i is the column P i, on components 2i and 2i + 1. *)
Definition bvec (P : nat -> mat) (j : nat) : R :=
  if Nat.even j then P (Nat.div2 j) 0%nat 0%nat else P (Nat.div2 j) 1%nat 0%nat.

(* The block-diagonal matrix whose block i is B i, on components 2i and 2i + 1, applied to v. *)
Definition bmat (B : nat -> mat) (v : nat -> R) (j : nat) : R :=
  if Nat.even j then B (Nat.div2 j) 0%nat 0%nat * v j + B (Nat.div2 j) 0%nat 1%nat * v (S j)
  else B (Nat.div2 j) 1%nat 0%nat * v (pred j) + B (Nat.div2 j) 1%nat 1%nat * v j.

(* The same with pair i on components i and h + i: the concatenated [first | second] layout. *)
Definition bvec_concat (h : nat) (P : nat -> mat) (j : nat) : R :=
  if Nat.ltb j h then P j 0%nat 0%nat else P (j - h)%nat 1%nat 0%nat.

Definition bmat_concat (h : nat) (B : nat -> mat) (v : nat -> R) (j : nat) : R :=
  if Nat.ltb j h then B j 0%nat 0%nat * v j + B j 0%nat 1%nat * v (h + j)%nat
  else B (j - h)%nat 1%nat 0%nat * v (j - h)%nat + B (j - h)%nat 1%nat 1%nat * v j.

(* P·x and P·M·P^T for the permutation P sending interleaved component j to to_concat h j. *)
Definition permute (h : nat) (x : nat -> R) (j : nat) : R := x (concat_index h j).
Definition conjugate (h : nat) (M : (nat -> R) -> nat -> R) (v : nat -> R) (j : nat) : R :=
  M (fun i => v (to_concat h i)) (concat_index h j).

Lemma bvec_even : forall P i, bvec P (2 * i) = P i 0%nat 0%nat.
Proof. intros. unfold bvec. rewrite even_double, Nat.div2_double. reflexivity. Qed.

Lemma bvec_odd : forall P i, bvec P (S (2 * i)) = P i 1%nat 0%nat.
Proof. intros. unfold bvec. rewrite even_succ_double, Nat.div2_succ_double. reflexivity. Qed.

Lemma bmat_even : forall B v i, bmat B v (2 * i) =
  B i 0%nat 0%nat * v (2 * i)%nat + B i 0%nat 1%nat * v (S (2 * i)).
Proof. intros. unfold bmat. rewrite even_double, Nat.div2_double. reflexivity. Qed.

Lemma bmat_odd : forall B v i, bmat B v (S (2 * i)) =
  B i 1%nat 0%nat * v (2 * i)%nat + B i 1%nat 1%nat * v (S (2 * i)).
Proof.
  intros. unfold bmat. rewrite even_succ_double, Nat.div2_succ_double, Nat.pred_succ.
  reflexivity.
Qed.

(* Component 2i or 2i + 1 of a whole-vector expression, written with its pair i's entries. *)
Ltac blocks := repeat (cbv beta; first
  [ rewrite pe_even | rewrite pe_odd | rewrite shift_even | rewrite shift_odd
  | rewrite bvec_even | rewrite bvec_odd | rewrite bmat_even | rewrite bmat_odd ]);
  mat_unfold.

(* Gives E's powers, sines and cosines the goal's texts where they are equal by algebra. *)
Ltac align E := repeat match type of E with
  | context [Rpower ?b ?x] => lazymatch goal with |- context [Rpower b x] => fail | _ => idtac end;
      match goal with |- context [Rpower b ?y] => replace (Rpower b x) with (Rpower b y) in E by args end
  | context [sin ?a] => lazymatch goal with |- context [sin a] => fail | _ => idtac end;
      match goal with |- context [sin ?b] => replace (sin a) with (sin b) in E by args end
  | context [cos ?a] => lazymatch goal with |- context [cos a] => fail | _ => idtac end;
      match goal with |- context [cos ?b] => replace (cos a) with (cos b) in E by args end
  end.

(* Closes a = b from E : a' = b' when a - b = a' - b' (or b' - a') by ring. *)
Ltac from_entry E := match type of E with ?a' = ?b' =>
  apply Rminus_diag_uniq; first
  [ transitivity (a' - b'); [ring | apply Rminus_diag_eq; exact E]
  | transitivity (b' - a'); [ring | apply Rminus_diag_eq; symmetry; exact E] ] end.

(* Gives the goal's sines and cosines one text where they are equal by algebra. *)
Ltac same_args := repeat match goal with
  | |- context [sin ?a] => match goal with |- context [sin ?b] =>
      assert_fails (constr_eq a b); replace (sin b) with (sin a) by args end
  | |- context [cos ?a] => match goal with |- context [cos ?b] =>
      assert_fails (constr_eq a b); replace (cos b) with (cos a) by args end
  end.

(* Closes a = b from E0 : a0 = b0 and E1 : a1 = b1 when a - b = (a0 - b0) x0 + (a1 - b1) x1. *)
Ltac from_entries E0 E1 x0 x1 := match type of E0 with ?a0 = ?b0 =>
  match type of E1 with ?a1 = ?b1 =>
  apply Rminus_diag_uniq; transitivity ((a0 - b0) * x0 + (a1 - b1) * x1); [ring |
  rewrite (Rminus_diag_eq _ _ E0), (Rminus_diag_eq _ _ E1); ring] end end.

(* A sum over the d = 2(n + 1) components, regrouped pair by pair (Headline's sum_pairs). *)
Lemma sum_pairs_at : forall (f : nat -> R) (m n : nat), m = S (2 * n) ->
  sum_f_R0 f m = sum_f_R0 (fun i => f (2 * i)%nat + f (S (2 * i))) n.
Proof. intros f m n ->. apply sum_pairs. Qed.

(* The same for the concatenated layout: pair i on components i and h + i. *)
Lemma concat_cases : forall h j : nat, (j < 2 * h)%nat ->
  (exists i, (i < h)%nat /\ j = i) \/ (exists i, (i < h)%nat /\ j = (h + i)%nat).
Proof.
  intros h j Hj. destruct (Nat.lt_ge_cases j h) as [H | H].
  - left. exists j. split; [exact H | reflexivity].
  - right. exists (j - h)%nat. split; lia.
Qed.

Lemma bvec_concat_first : forall h P i, (i < h)%nat -> bvec_concat h P i = P i 0%nat 0%nat.
Proof. intros h P i Hi. unfold bvec_concat. rewrite (proj2 (Nat.ltb_lt i h) Hi). reflexivity. Qed.

Lemma bvec_concat_second : forall h P i, (i < h)%nat ->
  bvec_concat h P (h + i) = P i 1%nat 0%nat.
Proof.
  intros h P i Hi. unfold bvec_concat.
  rewrite (proj2 (Nat.ltb_ge (h + i) h) ltac:(lia)). f_equal. lia.
Qed.

Lemma bmat_concat_first : forall h B v i, (i < h)%nat ->
  bmat_concat h B v i = B i 0%nat 0%nat * v i + B i 0%nat 1%nat * v (h + i)%nat.
Proof. intros h B v i Hi. unfold bmat_concat. rewrite (proj2 (Nat.ltb_lt i h) Hi). reflexivity. Qed.

Lemma bmat_concat_second : forall h B v i, (i < h)%nat ->
  bmat_concat h B v (h + i) = B i 1%nat 0%nat * v i + B i 1%nat 1%nat * v (h + i)%nat.
Proof.
  intros h B v i Hi. unfold bmat_concat.
  rewrite (proj2 (Nat.ltb_ge (h + i) h) ltac:(lia)).
  replace (h + i - h)%nat with i by lia. reflexivity.
Qed.

(* A sum over the d = 2(k + 1) components, regrouped pair by pair in the concatenated layout. *)
Lemma sum_halves_at : forall (f : nat -> R) (m k : nat), m = S (2 * k) ->
  sum_f_R0 f m = sum_f_R0 (fun i => f i + f (S k + i)%nat) k.
Proof.
  intros f m k ->. rewrite (tech2 f k (S (2 * k))) by lia.
  replace (S (2 * k) - S k)%nat with k by lia. rewrite sum_plus. reflexivity.
Qed.

(* Component i or h + i (i < h, from Hi) of a concatenated-layout expression, written with pair
   i's entries. *)
Ltac blocks_concat Hi := repeat (cbv beta; first
  [ rewrite (bvec_concat_first _ _ _ Hi) | rewrite (bvec_concat_second _ _ _ Hi)
  | rewrite (bmat_concat_first _ _ _ _ Hi) | rewrite (bmat_concat_second _ _ _ _ Hi) ]);
  mat_unfold.

(* Component c of a whole-vector expression at a concrete size, computed. *)
Ltac component := cbv beta zeta delta [pe shift pe_concat shift_concat bvec bmat bvec_concat
  bmat_concat permute conjugate Nat.ltb concat_index to_concat];
  cbn [Nat.even Nat.div2 Nat.leb Nat.sub Nat.add Nat.mul Nat.pred]; mat_unfold.

(* ---------- Rounding, in Flocq: the floor-and-ceiling formula of the generated statements is
   Flocq's round to nearest, ties to even. Imported last: Flocq's Ulp.pred and the ZArith it
   brings (Zpower.shift) would hide names the definitions above use. ---------- *)

From Flocq Require Import Core.

(* ZnearestE y, the integer nearest y with ties to the even one, is ceil((y - 1/2)/2) +
   floor((y + 1/2)/2). *)
Lemma ZnearestE_floor_ceil : forall y : R,
  IZR (ZnearestE y) = Rceil ((y - 1 / 2) / 2) + Rfloor ((y + 1 / 2) / 2).
Proof.
  intro y. unfold Znearest.
  pose proof (Zfloor_lb y) as Hlb. pose proof (Zfloor_ub y) as Hub.
  generalize dependent (Zfloor y). intros n Hlb Hub.
  assert (Hup : y - IZR n >= / 2 -> Zceil y = (n + 1)%Z).
  { intro Hf. apply Zceil_imp. rewrite minus_IZR, plus_IZR. lra. }
  destruct (Z.Even_or_Odd n) as [[k Hk] | [k Hk]];
    destruct (Rcompare_spec (y - IZR n) (/ 2)) as [Hf | Hf | Hf];
    rewrite ?Hup by lra; cbv beta;
    rewrite Hk in *; rewrite ?plus_IZR, ?mult_IZR in *; simpl (IZR 2) in *.
  - rewrite (Rceil_at _ (IZR k) k), (Rfloor_at _ (IZR k) k) by (reflexivity || lra). ring.
  - replace (Z.even (2 * k)) with true by (rewrite Z.even_mul; reflexivity). cbn [negb].
    rewrite mult_IZR.
    rewrite (Rceil_at _ (IZR k) k), (Rfloor_at _ (IZR k) k) by (reflexivity || lra). ring.
  - rewrite (Rceil_at _ (IZR k + 1) (k + 1)), (Rfloor_at _ (IZR k) k)
      by (rewrite ?plus_IZR; reflexivity || lra). ring.
  - rewrite (Rceil_at _ (IZR k + 1) (k + 1)), (Rfloor_at _ (IZR k) k)
      by (rewrite ?plus_IZR; reflexivity || lra). ring.
  - replace (Z.even (2 * k + 1)) with false
      by (rewrite Z.add_comm, Z.even_add_mul_2; reflexivity). cbn [negb].
    rewrite ?plus_IZR, ?mult_IZR.
    rewrite (Rceil_at _ (IZR k + 1) (k + 1)), (Rfloor_at _ (IZR k + 1) (k + 1))
      by (rewrite ?plus_IZR; reflexivity || lra). ring.
  - rewrite (Rceil_at _ (IZR k + 1) (k + 1)), (Rfloor_at _ (IZR k + 1) (k + 1))
      by (rewrite ?plus_IZR; reflexivity || lra). ring.
Qed.

(* In the binade [2^(e-1), 2^e) of a format with prec bits (above its subnormals, emin <= e - prec),
   the spacing is u = 2^(e-prec), and Flocq's round to nearest even is u times the formula at x/u. *)
Lemma round_NE_at : forall (emin prec e : Z) (u x : R),
  (emin <= e - prec)%Z -> bpow radix2 (e - prec) = u ->
  bpow radix2 (e - 1) <= x < bpow radix2 e ->
  round radix2 (FLT_exp emin prec) ZnearestE x =
  u * (Rceil ((x / u - 1 / 2) / 2) + Rfloor ((x / u + 1 / 2) / 2)).
Proof.
  intros emin prec e u x He Hu Hx.
  assert (Hpos : 0 < bpow radix2 (e - 1)) by apply bpow_gt_0.
  unfold round, F2R, scaled_mantissa, cexp. simpl.
  rewrite (mag_unique radix2 x e) by (rewrite Rabs_pos_eq; lra).
  unfold FLT_exp. rewrite Z.max_l by lia.
  rewrite ZnearestE_floor_ceil, bpow_opp, Hu. unfold Rdiv. ring.
Qed.

(* The exponent and the powers of 2 in a goal about bpow radix2, computed: bpow radix2 (9 - 8)
   becomes 2, bpow radix2 (-4 - 8) becomes / 4096. *)
Ltac bpow_num :=
  repeat match goal with |- context [bpow radix2 ?z] =>
    let z' := eval vm_compute in z in progress change z with z' end;
  unfold bpow;
  repeat match goal with |- context [Z.pow_pos ?r ?p] =>
    let v := eval vm_compute in (Z.pow_pos r p) in change (Z.pow_pos r p) with v end.

(* ---------- Sums of the lengths of partial sums, bounded term by term. ---------- *)

(* f k, f (k + 1), ... lie between the steps of the lists lo and hi of partial sums' bounds
   (p, q: the entries before, 0 at the start): x - p <= f k <= y - q. A Fixpoint, so that cbv
   unfolds it into one conjunction whose parts hold two numerals each. *)
Fixpoint steps_within (f : nat -> R) (k : nat) (p q : R) (lo hi : list R) : Prop :=
  match lo, hi with
  | x :: lo', y :: hi' => x - p <= f k <= y - q /\ steps_within f (S k) x y lo' hi'
  | _, _ => True
  end.

Lemma steps_within_sums : forall (f : nat -> R) (lo hi : list R) (k : nat) (p q : R),
  steps_within f k p q lo hi -> forall j, (j < length lo)%nat -> (j < length hi)%nat ->
  entry lo j - p <= sum_f_R0 (fun i => f (k + i)%nat) j <= entry hi j - q.
Proof.
  intros f lo. induction lo as [|x lo IH]; intros hi k p q H j Hlo Hhi; [simpl in Hlo; lia |].
  destruct hi as [|y hi]; [simpl in Hhi; lia |].
  destruct H as [Hk Hrest]. destruct j as [|j].
  - simpl. rewrite Nat.add_0_r. exact Hk.
  - simpl in Hlo, Hhi. rewrite decomp_sum by lia. cbv beta. change (Nat.pred (S j)) with j. rewrite Nat.add_0_r.
    destruct (IH hi (S k) x y Hrest j ltac:(lia) ltac:(lia)) as [H1 H2].
    rewrite (sum_eq (fun i => f (k + S i)%nat) (fun i => f (S k + i)%nat))
      by (intros i _; f_equal; lia).
    simpl entry. lra.
Qed.

(* For each j, sqrt (x² + y²) lies in [m, m'] over the box [a, a'] x [b, b'] of the j-th
   entries of the six lists. *)
Fixpoint boxes_within (al ah bl bh ml mh : list R) : Prop :=
  match al, ah, bl, bh, ml, mh with
  | a :: al', a' :: ah', b :: bl', b' :: bh', m :: ml', m' :: mh' =>
      (forall x y, a <= x <= a' -> b <= y <= b' -> m <= sqrt (x ^ 2 + y ^ 2) <= m') /\
      boxes_within al' ah' bl' bh' ml' mh'
  | _, _, _, _, _, _ => True
  end.

Lemma boxes_within_entry : forall (al ah bl bh ml mh : list R),
  boxes_within al ah bl bh ml mh -> forall j x y, (j < length al)%nat -> (j < length ah)%nat ->
  (j < length bl)%nat -> (j < length bh)%nat -> (j < length ml)%nat -> (j < length mh)%nat ->
  entry al j <= x <= entry ah j -> entry bl j <= y <= entry bh j ->
  entry ml j <= sqrt (x ^ 2 + y ^ 2) <= entry mh j.
Proof.
  induction al as [|a al IH]; intros ah bl bh ml mh H j x y H1 H2 H3 H4 H5 H6 Hx Hy;
    [simpl in H1; lia |].
  destruct ah as [|a' ah]; [simpl in H2; lia |]. destruct bl as [|b bl]; [simpl in H3; lia |].
  destruct bh as [|b' bh]; [simpl in H4; lia |]. destruct ml as [|m ml]; [simpl in H5; lia |].
  destruct mh as [|m' mh]; [simpl in H6; lia |].
  destruct H as [H0 Hrest]. destruct j as [|j]; simpl in H1, H2, H3, H4, H5, H6, Hx, Hy |- *.
  - exact (H0 x y Hx Hy).
  - apply (IH ah bl bh ml mh Hrest j x y); first [lia | assumption].
Qed.

(* Σ_{j<=N} |S_j| with S_j = Σ_{k<=j} (u k + i v k) (|S_j| = sqrt (Re² + Im²)) lies in [lo, hi]
   when the partial sums of u and v are bounded by the lists al, ah and bl, bh (each term
   between their steps), each sqrt (a² + b²) by ml, mh over the box those give a and b, and
   the sums of ml and mh by lo and hi. *)
Lemma partial_sums_abs_bounds :
  forall (u v : nat -> R) (al ah bl bh ml mh : list R) (N : nat) (lo hi : R),
  length al = S N -> length ah = S N -> length bl = S N -> length bh = S N ->
  length ml = S N -> length mh = S N ->
  steps_within u 0 0 0 al ah -> steps_within v 0 0 0 bl bh -> boxes_within al ah bl bh ml mh ->
  lo <= sum_f_R0 (entry ml) N -> sum_f_R0 (entry mh) N <= hi ->
  lo <= sum_f_R0 (fun j => sqrt (sum_f_R0 u j ^ 2 + sum_f_R0 v j ^ 2)) N <= hi.
Proof.
  intros u v al ah bl bh ml mh N lo hi L1 L2 L3 L4 L5 L6 Hu Hv Hb Hlo Hhi.
  assert (Hs : forall j, (j <= N)%nat ->
    entry ml j <= sqrt (sum_f_R0 u j ^ 2 + sum_f_R0 v j ^ 2) <= entry mh j).
  { intros j HjN.
    destruct (steps_within_sums u al ah 0 0 0 Hu j ltac:(lia) ltac:(lia)) as [U1 U2].
    destruct (steps_within_sums v bl bh 0 0 0 Hv j ltac:(lia) ltac:(lia)) as [V1 V2].
    change (fun i => u (0 + i)%nat) with u in U1, U2.
    change (fun i => v (0 + i)%nat) with v in V1, V2.
    apply (boxes_within_entry al ah bl bh ml mh Hb j); try lia; lra. }
  split.
  - apply Rle_trans with (1 := Hlo). apply sum_Rle. intros j HjN. apply (Hs j HjN).
  - apply Rle_trans with (2 := Hhi). apply sum_Rle. intros j HjN. apply (Hs j HjN).
Qed.
