(* PI is irrational: Ivan Niven's proof ("A simple proof that pi is irrational", Bull. AMS 53,
   1947), on the standard library's real numbers and its PI, without integrals.

   Suppose b * PI = a with a, b positive integers. For a degree N, take the integer polynomial
     P(y) = y^N (a - y)^N,
   the sum V = P - B P'' + B^2 P'''' - ... with B = b^2 (so that B V'' + V = P), and
     G(y) = b V'(y) sin (y / b) - V(y) cos (y / b),  whose derivative is  P(y) / b * sin (y / b).
   1. Every derivative of P at 0 and at a is a multiple of N!, so G(a) - G(0) = V(a) + V(0) is
      N! times an integer.
   2. By the mean value theorem G(a) - G(0) = a P(c) / b * sin (c / b) for some 0 < c < a: more
      than 0 (as 0 < c / b < PI) and at most a (a^2)^N / b, which is below N! once N is large
      (cv_speed_pow_fact).
   So N! times an integer lies strictly between 0 and N!, and no integer lies between 0 and 1. *)

Require Import Reals ZArith Lia Lra List.
Open Scope R_scope.

(* ---------- Polynomials with integer coefficients, lowest degree first. ---------- *)

Fixpoint peval (p : list Z) (x : R) : R :=
  match p with
  | nil => 0
  | c :: p' => IZR c + x * peval p' x
  end.

Fixpoint padd (p q : list Z) : list Z :=
  match p with
  | nil => q
  | c :: p' => match q with
               | nil => p
               | d :: q' => (c + d)%Z :: padd p' q'
               end
  end.

Definition pscale (c : Z) (p : list Z) : list Z := map (Z.mul c) p.

Fixpoint pmul (p q : list Z) : list Z :=
  match p with
  | nil => nil
  | c :: p' => padd (pscale c q) (0%Z :: pmul p' q)
  end.

Fixpoint ppow (p : list Z) (n : nat) : list Z :=
  match n with
  | O => 1%Z :: nil
  | S n' => pmul p (ppow p n')
  end.

(* x^N * q: N zero coefficients in front of q. *)
Definition pshift_up (N : nat) (q : list Z) : list Z := repeat 0%Z N ++ q.

(* The formal derivative, from (c + x p)' = p + x p'. *)
Fixpoint pderiv (p : list Z) : list Z :=
  match p with
  | nil => nil
  | _ :: p' => padd p' (0%Z :: pderiv p')
  end.

Fixpoint pderivn (j : nat) (p : list Z) : list Z :=
  match j with
  | O => p
  | S j' => pderiv (pderivn j' p)
  end.

Definition coef (p : list Z) (i : nat) : Z := nth i p 0%Z.

(* ---------- Evaluation is a ring morphism. ---------- *)

Lemma peval_padd : forall p q x, peval (padd p q) x = peval p x + peval q x.
Proof.
  induction p as [|c p IH]; intros [|d q] x; simpl; try rewrite IH; try rewrite plus_IZR; ring.
Qed.

Lemma peval_pscale : forall c p x, peval (pscale c p) x = IZR c * peval p x.
Proof.
  intros c p x. unfold pscale. induction p as [|d p IH]; simpl; [ring |].
  rewrite IH, mult_IZR. ring.
Qed.

Lemma peval_pmul : forall p q x, peval (pmul p q) x = peval p x * peval q x.
Proof.
  induction p as [|c p IH]; intros q x; simpl; [ring |].
  rewrite peval_padd, peval_pscale. simpl. rewrite IH. ring.
Qed.

Lemma peval_ppow : forall p n x, peval (ppow p n) x = peval p x ^ n.
Proof.
  intros p n x. induction n as [|n IH]; simpl; [ring |]. rewrite peval_pmul, IH. ring.
Qed.

Lemma peval_pshift_up : forall N q x, peval (pshift_up N q) x = x ^ N * peval q x.
Proof.
  unfold pshift_up. induction N as [|N IH]; intros q x; simpl; [ring |]. rewrite IH. ring.
Qed.

Lemma peval_at_0 : forall p, peval p 0 = IZR (coef p 0).
Proof. intros [|c p]; unfold coef; simpl; ring. Qed.

Lemma peval_zero_coefs : forall p x, (forall i, coef p i = 0%Z) -> peval p x = 0.
Proof.
  induction p as [|c p IH]; intros x H; simpl; [reflexivity |].
  assert (Hc : c = 0%Z) by exact (H 0%nat).
  rewrite Hc, IH; [ring | intro i; exact (H (S i))].
Qed.

(* ---------- Coefficients of derivatives. ---------- *)

Lemma coef_padd : forall p q i, coef (padd p q) i = (coef p i + coef q i)%Z.
Proof.
  unfold coef. induction p as [|c p IH]; intros [|d q] [|i]; simpl; try rewrite IH; ring.
Qed.

Lemma coef_pderiv : forall p i, coef (pderiv p) i = (Z.of_nat (S i) * coef p (S i))%Z.
Proof.
  induction p as [|c p IH]; intros i.
  - unfold coef. destruct i; simpl nth; ring.
  - change (pderiv (c :: p)) with (padd p (0%Z :: pderiv p)). rewrite coef_padd.
    destruct i as [|i].
    + unfold coef. simpl nth. change (Z.of_nat 1) with 1%Z. ring.
    + change (coef (0%Z :: pderiv p) (S i)) with (coef (pderiv p) i).
      change (coef (c :: p) (S (S i))) with (coef p (S i)).
      rewrite IH, (Nat2Z.inj_succ (S i)). ring.
Qed.

(* The j-th derivative's coefficient i is (i+1)(i+2)...(i+j) times coefficient i + j. *)
Lemma coef_pderivn : forall j p i,
  (Z.of_nat (fact i) * coef (pderivn j p) i = Z.of_nat (fact (i + j)) * coef p (i + j))%Z.
Proof.
  induction j as [|j IH]; intros p i.
  - rewrite Nat.add_0_r. reflexivity.
  - change (pderivn (S j) p) with (pderiv (pderivn j p)). rewrite coef_pderiv.
    replace (i + S j)%nat with (S i + j)%nat by lia.
    rewrite <- IH, fact_simpl, Nat2Z.inj_mul. ring.
Qed.

Lemma coef0_pderivn : forall j p, coef (pderivn j p) 0 = (Z.of_nat (fact j) * coef p j)%Z.
Proof.
  intros j p. rewrite <- (Z.mul_1_l (coef (pderivn j p) 0)). exact (coef_pderivn j p 0).
Qed.

(* Differentiating a polynomial more times than it has coefficients leaves zero. *)
Lemma pderivn_high : forall j p x, (length p <= j)%nat -> peval (pderivn j p) x = 0.
Proof.
  intros j p x Hj. apply peval_zero_coefs. intro i.
  assert (H := coef_pderivn j p i).
  unfold coef at 2 in H. rewrite nth_overflow in H by lia. rewrite Z.mul_0_r in H.
  apply Z.mul_eq_0 in H as [H | H]; [| exact H].
  exfalso. apply (fact_neq_0 i). lia.
Qed.

(* ---------- Multiples of N!. ---------- *)

Definition fact_multiple (N : nat) (x : R) : Prop := exists z : Z, x = IZR z * INR (fact N).

Lemma fact_divides : forall N k, exists m, fact (N + k) = (m * fact N)%nat.
Proof.
  intros N k. induction k as [|k [m Hm]].
  - exists 1%nat. rewrite Nat.add_0_r. lia.
  - exists (S (N + k) * m)%nat. rewrite Nat.add_succ_r, fact_simpl, Hm. ring.
Qed.

(* Every derivative of x^N * q at 0 is a multiple of N!. *)
Lemma pderivn_at_0 : forall N q j, fact_multiple N (peval (pderivn j (pshift_up N q)) 0).
Proof.
  intros N q j. rewrite peval_at_0, coef0_pderivn. unfold coef, pshift_up.
  destruct (Nat.lt_ge_cases j N) as [Hj | Hj].
  - exists 0%Z. rewrite app_nth1 by (rewrite repeat_length; exact Hj).
    rewrite nth_repeat, Z.mul_0_r. ring.
  - destruct (fact_divides N (j - N)) as [m Hm].
    replace (N + (j - N))%nat with j in Hm by lia.
    exists (Z.of_nat m * nth (j - N) q 0)%Z.
    rewrite app_nth2, repeat_length by (rewrite repeat_length; exact Hj).
    rewrite Hm, Nat2Z.inj_mul, !mult_IZR, INR_IZR_INZ. ring.
Qed.

Lemma fact_multiple_plus : forall N x y,
  fact_multiple N x -> fact_multiple N y -> fact_multiple N (x + y).
Proof.
  intros N x y [u ->] [v ->]. exists (u + v)%Z. rewrite plus_IZR. ring.
Qed.

Lemma fact_multiple_scale : forall N z x, fact_multiple N x -> fact_multiple N (IZR z * x).
Proof. intros N z x [u ->]. exists (z * u)%Z. rewrite mult_IZR. ring. Qed.

Lemma fact_multiple_sum : forall N (f : nat -> R) K,
  (forall k, fact_multiple N (f k)) -> fact_multiple N (sum_f_R0 f K).
Proof.
  intros N f K H. induction K as [|K IH]; simpl; [apply H | apply fact_multiple_plus; auto].
Qed.

(* ---------- Derivatives, after derivable_pt_lim. ---------- *)

Lemma derivable_pt_lim_ext : forall f g x l l', (forall y, f y = g y) -> l = l' ->
  derivable_pt_lim f x l -> derivable_pt_lim g x l'.
Proof.
  intros f g x l l' Hfg <- H eps Heps. destruct (H eps Heps) as [delta Hd].
  exists delta. intros h Hh0 Hh. rewrite <- !Hfg. exact (Hd h Hh0 Hh).
Qed.

Lemma peval_derivable : forall p x, derivable_pt_lim (peval p) x (peval (pderiv p) x).
Proof.
  induction p as [|c p IH]; intro x.
  - exact (derivable_pt_lim_const 0 x).
  - refine (derivable_pt_lim_ext _ _ _ _ _ _ _
      (derivable_pt_lim_plus _ _ x _ _ (derivable_pt_lim_const (IZR c) x)
        (derivable_pt_lim_mult id (peval p) x _ _ (derivable_pt_lim_id x) (IH x)))).
    + intro y. reflexivity.
    + change (pderiv (c :: p)) with (padd p (0%Z :: pderiv p)). rewrite peval_padd.
      simpl. unfold id. ring.
Qed.

Lemma derivable_pt_lim_translate : forall a x, derivable_pt_lim (fun y => y + a) x 1.
Proof.
  intros a x. refine (derivable_pt_lim_ext _ _ _ _ _ _ _
    (derivable_pt_lim_plus id (fct_cte a) x _ _ (derivable_pt_lim_id x)
      (derivable_pt_lim_const a x))); [intro y; reflexivity | ring].
Qed.

(* If r is p translated by a, so is each derivative of r. *)
Lemma pderivn_translate : forall (r p : list Z) (a : R),
  (forall z, peval r z = peval p (z + a)) ->
  forall j z, peval (pderivn j r) z = peval (pderivn j p) (z + a).
Proof.
  intros r p a H j. induction j as [|j IH]; intro z; [apply H |].
  change (pderivn (S j) r) with (pderiv (pderivn j r)).
  change (pderivn (S j) p) with (pderiv (pderivn j p)).
  apply (uniqueness_limite (peval (pderivn j r)) z); [apply peval_derivable |].
  refine (derivable_pt_lim_ext _ _ _ _ _ _ _
    (derivable_pt_lim_comp (fun y => y + a) (peval (pderivn j p)) z _ _
      (derivable_pt_lim_translate a z) (peval_derivable (pderivn j p) (z + a)))).
  - intro y. unfold comp. symmetry. apply IH.
  - ring.
Qed.

Lemma derivable_pt_lim_sum : forall (f f' : nat -> R -> R) x K,
  (forall k, derivable_pt_lim (f k) x (f' k x)) ->
  derivable_pt_lim (fun y => sum_f_R0 (fun k => f k y) K) x (sum_f_R0 (fun k => f' k x) K).
Proof.
  intros f f' x K H. induction K as [|K IH]; [exact (H 0%nat) |].
  exact (derivable_pt_lim_plus _ _ x _ _ IH (H (S K))).
Qed.

Lemma derivable_pt_lim_div_const : forall b x, derivable_pt_lim (fun t => t / b) x (/ b).
Proof.
  intros b x. refine (derivable_pt_lim_ext _ _ _ _ _ _ _
    (derivable_pt_lim_scal id (/ b) x _ (derivable_pt_lim_id x))).
  - intro t. unfold mult_real_fct, id, Rdiv. ring.
  - ring.
Qed.

Lemma sin_scaled_derivable : forall b x,
  derivable_pt_lim (fun t => sin (t / b)) x (cos (x / b) * / b).
Proof.
  intros b x. exact (derivable_pt_lim_comp (fun t => t / b) sin x _ _
    (derivable_pt_lim_div_const b x) (derivable_pt_lim_sin (x / b))).
Qed.

Lemma cos_scaled_derivable : forall b x,
  derivable_pt_lim (fun t => cos (t / b)) x (- sin (x / b) * / b).
Proof.
  intros b x. exact (derivable_pt_lim_comp (fun t => t / b) cos x _ _
    (derivable_pt_lim_div_const b x) (derivable_pt_lim_cos (x / b))).
Qed.

(* ---------- Niven's functions V and G. ---------- *)

(* V^(j) = sum_k (-B)^k P^(j + 2k), k = 0 .. K. *)
Definition niven_V (B : R) (P : list Z) (K j : nat) (y : R) : R :=
  sum_f_R0 (fun k => (- B) ^ k * peval (pderivn (j + 2 * k) P) y) K.

Lemma niven_V_derivable : forall B P K j y,
  derivable_pt_lim (niven_V B P K j) y (niven_V B P K (S j) y).
Proof.
  intros B P K j y. unfold niven_V.
  apply (derivable_pt_lim_sum (fun k t => (- B) ^ k * peval (pderivn (j + 2 * k) P) t)
    (fun k t => (- B) ^ k * peval (pderivn (S j + 2 * k) P) t)).
  intro k. apply (derivable_pt_lim_scal (peval (pderivn (j + 2 * k) P))), peval_derivable.
Qed.

(* B V'' + V = P, up to a term that vanishes once 2(K+1) exceeds P's length. *)
Lemma niven_V_identity : forall B P K y,
  B * niven_V B P K 2 y + niven_V B P K 0 y =
  peval P y - (- B) ^ S K * peval (pderivn (2 * S K) P) y.
Proof.
  intros B P K y. unfold niven_V. induction K as [|K IH].
  - simpl. ring.
  - rewrite !tech5. cbv beta.
    replace (2 + 2 * S K)%nat with (2 * S (S K))%nat by lia.
    change (0 + 2 * S K)%nat with (2 * S K)%nat.
    change ((- B) ^ S (S K)) with (- B * (- B) ^ S K).
    lra.
Qed.

Definition niven_G (b B : R) (P : list Z) (K : nat) (y : R) : R :=
  b * niven_V B P K 1 y * sin (y / b) - niven_V B P K 0 y * cos (y / b).

Lemma niven_G_derivable : forall b B P K y, b <> 0 ->
  derivable_pt_lim (niven_G b B P K) y
    ((b * niven_V B P K 2 y + niven_V B P K 0 y / b) * sin (y / b)).
Proof.
  intros b B P K y Hb.
  refine (derivable_pt_lim_ext _ _ _ _ _ _ _
    (derivable_pt_lim_minus _ _ y _ _
      (derivable_pt_lim_mult _ _ y _ _
        (derivable_pt_lim_scal _ b y _ (niven_V_derivable B P K 1 y)) (sin_scaled_derivable b y))
      (derivable_pt_lim_mult _ _ y _ _
        (niven_V_derivable B P K 0 y) (cos_scaled_derivable b y)))).
  - intro t. reflexivity.
  - unfold mult_real_fct. field. exact Hb.
Qed.

(* ---------- The contradiction. ---------- *)

Lemma peval_niven : forall (a : Z) N y,
  peval (pshift_up N (ppow (a :: (-1)%Z :: nil) N)) y = y ^ N * (IZR a - y) ^ N.
Proof.
  intros a N y. rewrite peval_pshift_up, peval_ppow. simpl. f_equal. f_equal. ring.
Qed.

(* P translated by a: (z + a)^N (-z)^N = z^N (-a - z)^N. *)
Lemma niven_translate : forall (a : Z) N z,
  peval (pshift_up N (ppow ((- a)%Z :: (-1)%Z :: nil) N)) z =
  peval (pshift_up N (ppow (a :: (-1)%Z :: nil) N)) (z + IZR a).
Proof.
  intros a N z. rewrite !peval_niven, opp_IZR, <- !Rpow_mult_distr. f_equal. ring.
Qed.

(* Niven: b * PI = a has no solution in integers with b > 0. *)
Theorem niven : forall a b : Z, (0 < b)%Z -> IZR a <> IZR b * PI.
Proof.
  intros a b Hb Ha.
  assert (HbR : 0 < IZR b) by (apply IZR_lt; exact Hb).
  assert (HaR : 0 < IZR a) by (rewrite Ha; apply Rmult_lt_0_compat; [exact HbR | exact PI_RGT_0]).
  (* A degree N with (a^2)^N / N! < b / a. *)
  destruct (cv_speed_pow_fact (IZR a * IZR a) (IZR b / IZR a)) as [N HN].
  { apply Rdiv_lt_0_compat; assumption. }
  specialize (HN N (le_n N)). unfold R_dist in HN. rewrite Rminus_0_r in HN.
  apply Rabs_def2 in HN as [HN _].
  set (P := pshift_up N (ppow (a :: (-1)%Z :: nil) N)).
  set (B := IZR (b * b)).
  set (K := length P).
  set (G := niven_G (IZR b) B P K).
  set (G' := fun y => (IZR b * niven_V B P K 2 y + niven_V B P K 0 y / IZR b) * sin (y / IZR b)).
  (* 1. G(a) - G(0) is N! times an integer. *)
  assert (Hint : fact_multiple N (G (IZR a) - G 0)).
  { assert (HaPI : IZR a / IZR b = PI) by (rewrite Ha; field; lra).
    assert (E : G (IZR a) - G 0 = niven_V B P K 0 (IZR a) + niven_V B P K 0 0).
    { unfold G, niven_G. rewrite HaPI, sin_PI, cos_PI. unfold Rdiv. rewrite Rmult_0_l, sin_0, cos_0.
      ring. }
    rewrite E. unfold niven_V. apply fact_multiple_plus; apply fact_multiple_sum; intro k;
      (replace ((- B) ^ k) with (IZR ((- (b * b)) ^ Z.of_nat k))
        by (unfold B; rewrite <- pow_IZR, opp_IZR; reflexivity));
      apply fact_multiple_scale.
    - rewrite <- (Rplus_0_l (IZR a)), <- (pderivn_translate _ _ _ (niven_translate a N)).
      apply pderivn_at_0.
    - apply pderivn_at_0. }
  (* 2. By the mean value theorem, G(a) - G(0) = G'(c) a with 0 < c < a. *)
  destruct (MVT_cor2 G G' 0 (IZR a) HaR) as [c [Hc [Hc0 Hca]]].
  { intros c _. apply niven_G_derivable. lra. }
  assert (HG' : G' c = peval P c / IZR b * sin (c / IZR b)).
  { unfold G'. f_equal.
    assert (Hid := niven_V_identity B P K c).
    rewrite pderivn_high in Hid by (unfold K; lia).
    rewrite Rmult_0_r, Rminus_0_r in Hid.
    rewrite <- Hid. unfold B. rewrite mult_IZR. field. lra. }
  assert (HP : 0 < peval P c <= (IZR a * IZR a) ^ N).
  { unfold P. rewrite peval_niven, <- Rpow_mult_distr. split.
    - apply pow_lt. nra.
    - apply pow_incr. nra. }
  assert (Hs : 0 < sin (c / IZR b) <= 1).
  { split; [| apply SIN_bound]. apply sin_gt_0.
    - apply Rdiv_lt_0_compat; lra.
    - replace PI with (IZR a / IZR b) by (rewrite Ha; field; lra).
      unfold Rdiv. apply Rmult_lt_compat_r; [apply Rinv_0_lt_compat |]; lra. }
  (* 3. So N! times an integer lies strictly between 0 and N!. *)
  destruct Hint as [z Hz].
  assert (HF : 0 < INR (fact N)) by apply INR_fact_lt_0.
  set (F := INR (fact N)) in *. set (X := (IZR a * IZR a) ^ N) in *.
  rewrite Hc, HG', Rminus_0_r in Hz.
  assert (Hlow : 0 < IZR z * F).
  { rewrite <- Hz. apply Rmult_lt_0_compat; [| lra].
    apply Rmult_lt_0_compat; [apply Rdiv_lt_0_compat |]; lra. }
  assert (Hhigh : IZR z * F < F).
  { rewrite <- Hz. apply Rle_lt_trans with (X * (IZR a / IZR b)).
    - replace (peval P c / IZR b * sin (c / IZR b) * IZR a)
        with (peval P c * sin (c / IZR b) * (IZR a / IZR b)) by (field; lra).
      apply Rmult_le_compat_r; [apply Rlt_le, Rdiv_lt_0_compat; lra | nra].
    - assert (H1 : X / F * (F * (IZR a / IZR b)) < IZR b / IZR a * (F * (IZR a / IZR b))).
      { apply Rmult_lt_compat_r; [| exact HN].
        apply Rmult_lt_0_compat; [| apply Rdiv_lt_0_compat]; lra. }
      replace (X / F * (F * (IZR a / IZR b))) with (X * (IZR a / IZR b)) in H1 by (field; lra).
      replace (IZR b / IZR a * (F * (IZR a / IZR b))) with F in H1 by (field; lra).
      exact H1. }
  assert (Hz0 : (0 < z)%Z) by (apply lt_IZR; nra).
  assert (Hz1 : (z < 1)%Z) by (apply lt_IZR; nra).
  lia.
Qed.

(* PI is no ratio of integers. *)
Theorem pi_irrational : forall n m : Z, m <> 0%Z -> IZR n <> IZR m * PI.
Proof.
  intros n m Hm H. destruct (proj1 (Z.lt_gt_cases m 0) Hm) as [Hneg | Hpos].
  - apply (niven (- n) (- m)); [lia |]. rewrite !opp_IZR, H. ring.
  - apply (niven n m); [lia | exact H].
Qed.
