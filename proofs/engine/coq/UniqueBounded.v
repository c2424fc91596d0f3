(* Unconditional uniqueness for positions at most BOUND apart: no integer n with
   1 <= |n| <= BOUND is an integer multiple of PI. Certified with the Interval library
   (an enclosure of PI) and a computed check over every candidate multiplier. *)

Require Import Reals ZArith Lia Lra.
From Interval Require Import Tactic Specific_stdz Specific_ops.
(* Interval's tactic over floats built on Z: its default floats compute with the kernel's
   primitive integers and floats, whose specifications the library states as axioms. Every call
   below asks for 60 bits, since at 53 bits the tactic switches to primitive floats anyway. *)
Module StdZFloats := SpecificFloat StdZRadix2.
Module StdZInterval := IntervalTactic StdZFloats.
Import StdZInterval.
(* Imported after ZArith so that shift means the encoding's shift, not Zpower.shift. *)
Require Import PeProofs.Headline.
Open Scope R_scope.

(* PI lies strictly between PI_LO / SCALE and (PI_LO + 1) / SCALE. *)
Definition SCALE : Z := 1000000000000.
Definition PI_LO : Z := 3141592653589.

Lemma PI_enclosure : IZR PI_LO < PI * IZR SCALE < IZR (PI_LO + 1).
Proof. unfold PI_LO, SCALE. simpl Z.add. split; interval with (i_prec 60). Qed.

(* m * PI lies strictly between two consecutive integers: checked on the enclosure. *)
Definition between_integers (m : Z) : bool :=
  let N := (m * PI_LO / SCALE)%Z in
  (N * SCALE <? m * PI_LO)%Z && (m * (PI_LO + 1) <? (N + 1) * SCALE)%Z.

(* Checks the multipliers top, top - 1, ..., top - n + 1; counting down in Z keeps each step cheap. *)
Fixpoint all_between (n : nat) (top : Z) : bool :=
  match n with
  | O => true
  | S n' => between_integers top && all_between n' (top - 1)
  end.

Lemma all_between_spec : forall n top m, all_between n top = true ->
  (top - Z.of_nat n < m <= top)%Z -> between_integers m = true.
Proof.
  induction n as [|n IH]; intros top m Hall Hm; [lia |].
  simpl in Hall. apply andb_prop in Hall as [Htop Hall].
  destruct (Z.eq_dec m top) as [-> | Hne]; [exact Htop |].
  apply (IH (top - 1)%Z); [exact Hall | lia].
Qed.

Lemma no_integer_multiple : forall m n : Z, (0 < m)%Z -> between_integers m = true ->
  IZR n <> IZR m * PI.
Proof.
  intros m n Hm Hb Heq. unfold between_integers in Hb.
  apply andb_prop in Hb as [H1 H2]. apply Z.ltb_lt in H1, H2.
  set (N := (m * PI_LO / SCALE)%Z) in *.
  destruct PI_enclosure as [Hlo Hhi].
  assert (HmR : 0 < IZR m) by (apply IZR_lt; exact Hm).
  (* m * PI_LO < n * SCALE < m * (PI_LO + 1), read off the enclosure times m. *)
  assert (Hl : (m * PI_LO < n * SCALE)%Z).
  { apply lt_IZR. rewrite !mult_IZR, Heq.
    replace (IZR m * PI * IZR SCALE) with (IZR m * (PI * IZR SCALE)) by ring.
    apply Rmult_lt_compat_l; assumption. }
  assert (Hh : (n * SCALE < m * (PI_LO + 1))%Z).
  { apply lt_IZR. rewrite !mult_IZR, Heq.
    replace (IZR m * PI * IZR SCALE) with (IZR m * (PI * IZR SCALE)) by ring.
    apply Rmult_lt_compat_l; assumption. }
  unfold PI_LO, SCALE in *. lia.
Qed.

(* The largest position difference covered; multipliers up to BOUND / 3 are checked. *)
Definition BOUND : Z := 10000.

Lemma candidates_checked : all_between (Z.to_nat (BOUND / 3)) (BOUND / 3) = true.
Proof. vm_compute. reflexivity. Qed.

Lemma no_small_multiple_of_PI : forall n m : Z, m <> 0%Z -> (Z.abs n <= BOUND)%Z ->
  IZR n <> IZR m * PI.
Proof.
  assert (Hpos : forall n m : Z, (0 < m)%Z -> (Z.abs n <= BOUND)%Z -> IZR n <> IZR m * PI).
  { intros n m Hm Hn Heq.
    assert (H3 : (3 * m < n)%Z).
    { apply lt_IZR. rewrite mult_IZR, Heq, (Rmult_comm (IZR m) PI). apply Rmult_lt_compat_r.
      - apply IZR_lt. exact Hm.
      - interval with (i_prec 60). }
    assert (Hall := all_between_spec _ _ m candidates_checked).
    refine (no_integer_multiple m n Hm (Hall _) Heq).
    rewrite Z2Nat.id; unfold BOUND in *; [|apply Z.div_pos; lia].
    split; [lia|]. apply Z.div_le_lower_bound; [lia|]. lia. }
  intros n m Hm0 Hn Heq. destruct (proj1 (Z.lt_gt_cases m 0) Hm0) as [Hneg | Hp]; [| exact (Hpos n m Hp Hn Heq) ].
  apply (Hpos (- n)%Z (- m)%Z); [lia | rewrite Z.abs_opp; exact Hn |].
  rewrite !opp_IZR, Heq. ring.
Qed.

Theorem pe_unique_bounded : forall (d : nat) (p q : Z), p <> q -> (Z.abs (p - q) <= 10000)%Z ->
  pe d (IZR p) 0 <> pe d (IZR q) 0 \/ pe d (IZR p) 1 <> pe d (IZR q) 1.
Proof.
  intros d p q Hpq Hb. apply pe_unique_at; [exact Hpq |].
  intros m Hm. apply no_small_multiple_of_PI; [exact Hm | exact Hb].
Qed.
