"""The version of the rules the engine plays, saved with every game: a save recorded under
earlier rules is replayed under today's as far as its actions stay legal and draw the same
dice, and says where the two part (CHANGELOG-style history below).

1. The rules to 2026-11-30.
2. Play follows the seeds where it departed from them: a road costs 1/2 MP only along the road
   (RD-10); C6.17 counts MP per Target Facing and resumes a facing turned back to; no Case J at a
   vehicle that only pivots (C6.1); a turreted AFV's hull pivot keeps its Acquired counter (C6.5)
   and a Gun that turns keeps its Bore Sight (C6.43); a pivot or a stop loses concealment in an
   enemy's LOS (RD-11); an abandoned AFV leaves no wreck (002); no Advancing Fire after Prep Fire
   (RD-12); Case B from higher (C7.22) and +1 for a DC Thrown in the AFPh (C7.346); special
   ammunition is limited (RD-17); a shot at a concealed unit is allowed whatever it is (HX-13).
3. An Acquired counter goes with a target removed from play (HX-14): a shot that burns,
   eliminates or abandons its target places none, and the counters other Guns had on it are
   removed (one stays on the Location when other Known enemy units are left there, C6.51).
4. What a "?" lets the other side learn (RD-20): a shot at a "?" is refused only by its To Hit
   (Case D's NA no longer forbids it; a hit with no To Kill number reveals it with no effect),
   and a "?" that moves in an enemy's LOS opens Defensive First Fire whatever it is (Infantry
   included), counted 1 MP a hex entered, with no chance after its pivots or its stop.
5. An ASL expert's read: a vehicle's start MP give Defensive First Fire its chance in its own
   hex before it leaves (HX-5); no Case J at a "?" that was Infantry (C6.1); a vehicle in Motion
   stops only in a new hex (HX-16); a red CS# never burns a TK DR equal to the Final TK#
   (HX-17); a first shot at 1/2 MP claims the Location's first whole MP (HX-18).
"""

RULES_VERSION = 5
