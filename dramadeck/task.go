package dramadeck

import (
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// Task is a Dramatic Skill Resolution (GM Side, "Dramatic Skill
// Resolution"): an extended task in steps A to D, one skill, a difficulty
// modifier per step, and a time limit in rounds.
type Task struct {
	Skill int `json:"skill"`
	// Alternate is the different skill a Critical Problem lets the player
	// switch to (the text asks the player to describe one); Others are
	// further skills later Critical Problems switch to, in turn, before
	// coming back to Skill.
	Alternate int      `json:"alternate"`
	Others    []int    `json:"others,omitempty"`
	Modifiers [4]int   `json:"modifiers"` // per step A..D
	Rounds    int      `json:"rounds"`    // time limit
	Kind      RollKind `json:"kind"`      // roll kind for card purposes
}

// Check reports a task the rules cannot run.
func (t *Task) Check() error {
	switch {
	case t.Rounds < 1 || t.Rounds > 100:
		return fmt.Errorf("task.rounds: %d, must be 1..100", t.Rounds)
	case len(t.Others) > maxOthers:
		return fmt.Errorf("task.others: %d skills, at most %d", len(t.Others), maxOthers)
	}
	for i := range t.skills() {
		if sk := t.skill(i); sk < -10 || sk > 40 {
			return fmt.Errorf("task: skill %d of skill, alternate and others is %d, must be -10..40", i, sk)
		}
	}
	switch {
	case t.Kind > Interpersonal:
		return fmt.Errorf("task.kind: %d, must be 0..2", t.Kind)
	}
	return nil
}

// maxOthers bounds a task's further skills.
const maxOthers = 8

// skills is how many skills the task may be worked with.
func (t *Task) skills() int { return 2 + len(t.Others) }

// skill is skill i of Skill, Alternate, Others.
func (t *Task) skill(i int) int {
	switch i {
	case 0:
		return t.Skill
	case 1:
		return t.Alternate
	}
	return t.Others[i-2]
}

// TaskState is a Dramatic Skill Resolution in progress.
type TaskState struct {
	Task   Task `json:"task"`
	Player int  `json:"player"` // whose hero works on it
	Done   int  `json:"done"`   // steps completed (next is A+Done)
	Worse  int  `json:"worse"`  // Complication penalty so far
	Round  int  `json:"round"`  // rounds used
	// Using is the skill worked with: 0 Skill, 1 Alternate, 2 on Others.
	Using    int  `json:"using,omitempty"`
	Restarts int  `json:"restarts"`
	Finished bool `json:"finished"`
	Failed   bool `json:"failed"`
	// LastDitch: completed (or failed) by the last-ditch effort.
	LastDitch bool `json:"last_ditch"`
}

// TaskView is what a policy sees when deciding about a task.
type TaskView struct {
	Player     int  `json:"player"`      // whose hero works on it
	Skill      int  `json:"skill"`       // skill in use (Skill, or another once switched)
	Alternate  int  `json:"alternate"`   // the skill a switch would take up next
	Modifier   int  `json:"modifier"`    // modifier of the next step, Complications included
	Done       int  `json:"done"`        // steps completed
	Steps      int  `json:"steps"`       // steps in the task
	Avail      int  `json:"avail"`       // steps that may be attempted at once now (Steps only)
	RoundsLeft int  `json:"rounds_left"` // rounds left after this one
	Switched   bool `json:"switched"`    // already switched skills
}

func (ts *TaskState) view(rules *Rules, avail int) TaskView {
	t := &ts.Task
	v := TaskView{Player: ts.Player, Skill: t.skill(ts.Using), Alternate: t.skill((ts.Using + 1) % t.skills()), Done: ts.Done,
		Steps: rules.TaskSteps, Avail: avail, RoundsLeft: t.Rounds - ts.Round, Switched: ts.Using != 0}
	if ts.Done < rules.TaskSteps {
		v.Modifier = ts.Task.Modifiers[ts.Done] - ts.Worse
	}
	return v
}

// taskView shows task ts to a policy, avail steps on offer: a TaskView
// the engine refills for each question.
func (g *game) taskView(ts *TaskState, avail int) *TaskView {
	g.State.lend.tv = ts.view(&g.State.Rules, avail)
	return &g.State.lend.tv
}

// StartTask is Engine.StartTask on g.State.
func (g *game) StartTask(p int, t Task) (int, error) {
	if err := g.checkPlayer(p); err != nil {
		return -1, err
	}
	if err := t.Check(); err != nil {
		return -1, err
	}
	if len(g.State.Tasks) >= maxTasks {
		return -1, fmt.Errorf("%d tasks already started, at most %d", len(g.State.Tasks), maxTasks)
	}
	g.State.Tasks = append(g.State.Tasks, TaskState{Task: t, Player: p})
	return len(g.State.Tasks) - 1, nil
}

// StepAvail reports how many steps bar lets a task attempt at once when
// done steps are complete (0 when the next step is not shown).
func StepAvail(bar Bar, done, steps int) int {
	first, n := bar.Steps()
	if n == 0 || done < first || done >= first+n || done >= steps {
		return 0
	}
	return min(first+n, steps) - done
}

// TaskRound is Engine.TaskRound on g.State.
func (g *game) TaskRound(r *dice.Roller, i int, pol Policy) error {
	if err := g.checkTask(i, pol); err != nil {
		return err
	}
	s := g.State
	if s.Combat && len(s.Stack) == 0 {
		return errors.New("no card on the action stack")
	}
	if !s.Combat && len(s.Draw) == 0 && len(s.Discard) == 0 && len(s.Stack) == 0 {
		// With no card left to turn, the last turned card is read again
		// (flip); with none turned at all there is no skill bar to read.
		return errors.New("no card to turn for the task (draw pile, discards and action stack are empty)")
	}
	plan, err := g.planTask(i, numBars, 0, pol)
	if err != nil {
		return err
	}
	if g.mustStop() {
		return errHalted
	}
	if g.guard {
		// Two cards at most are drawn: the one turned and a side roll's.
		if err := g.keep(r, s.Tasks[i].Player, -1, i, 2); err != nil {
			return err
		}
	}
	if !s.Combat {
		g.flip(r)
	}
	plan.bar = s.Deck.Cards[s.Stack[len(s.Stack)-1]].Bar
	return g.taskStep(r, i, plan, pol)
}

// checkTask reports why task i may not take a round now: the rules, the
// task, and in combat the hero's turn.
func (g *game) checkTask(i int, pol Policy) error {
	if pol == nil {
		return errors.New("the task needs a policy")
	}
	return g.checkTaskRound(i)
}

// checkTaskRound is checkTask without the policy.
func (g *game) checkTaskRound(i int) error {
	if err := g.checkStep(); err != nil {
		return err
	}
	s := g.State
	if i < 0 || i >= len(s.Tasks) {
		return fmt.Errorf("task %d does not exist (have %d)", i, len(s.Tasks))
	}
	ts := &s.Tasks[i]
	switch {
	case ts.Finished || ts.Failed:
		return errors.New("the task is over")
	case ts.Round >= ts.Task.Rounds:
		return errors.New("the time limit has expired (only the last-ditch effort remains)")
	case ts.Done >= s.Rules.TaskSteps:
		return fmt.Errorf("the task has done %d steps of %d", ts.Done, s.Rules.TaskSteps)
	}
	if err := g.checkPlayer(ts.Player); err != nil {
		return err
	}
	if err := ts.Task.Check(); err != nil {
		return err
	}
	if s.Combat {
		// In combat, working on the task is the hero's action for the
		// round (Dramatic Skill Resolution: the skill use is an action).
		return g.checkTurn(ts.Player)
	}
	return nil
}

// TaskStep is Engine.TaskStep on g.State.
func (g *game) TaskStep(r *dice.Roller, i int, bar Bar, pol Policy) error {
	if err := g.checkTask(i, pol); err != nil {
		return err
	}
	if bar >= numBars {
		return fmt.Errorf("skill bar %d does not exist", bar)
	}
	plan, err := g.planTask(i, bar, 0, pol)
	if err != nil {
		return err
	}
	return g.taskStep(r, i, plan, pol)
}

// AttemptSteps is Engine.AttemptSteps on g.State.
func (g *game) AttemptSteps(r *dice.Roller, i int, bar Bar, from, k int, pol Policy) error {
	if err := g.checkTask(i, pol); err != nil {
		return err
	}
	ts := &g.State.Tasks[i]
	if from != ts.Done {
		return fmt.Errorf("step %c cannot be attempted: steps go in order and the next is %c", 'A'+rune(max(from, 0)), 'A'+rune(ts.Done))
	}
	if bar >= numBars {
		return fmt.Errorf("skill bar %d does not exist", bar)
	}
	avail := StepAvail(bar, ts.Done, g.State.Rules.TaskSteps)
	if k < 1 || k > avail {
		return fmt.Errorf("the skill bar shows %v: %d step(s) from %c may be attempted, not %d", bar, avail, 'A'+rune(from), k)
	}
	plan, err := g.planTask(i, bar, k, pol)
	if err != nil {
		return err
	}
	plan.steps[avail] = k
	return g.taskStep(r, i, plan, pol)
}

// taskPlan is a task round decided before any die is rolled or card
// turned: the bar (once known) and the policy's answers, checked.
type taskPlan struct {
	bar Bar
	// steps[a] is how many steps to attempt when the bar lets a steps be
	// tried at once (a bar shows one step or two).
	steps [3]int
	side  bool // take the extra approved action's roll
}

// planTask asks the policy what task i's round may need and checks the
// answers: how many steps to attempt (k > 0: the player named them; for
// a bar not yet turned, numBars, the answer for one step shown and for
// two), and whether to take the side roll.
func (g *game) planTask(i int, bar Bar, k int, pol Policy) (taskPlan, error) {
	s := g.State
	ts := &s.Tasks[i]
	plan := taskPlan{bar: bar}
	for a := 1; a <= 2; a++ {
		if k > 0 {
			plan.steps[a] = k
			continue
		}
		if bar < numBars && StepAvail(bar, ts.Done, s.Rules.TaskSteps) != a {
			continue
		}
		n := pol.Steps(g.taskView(ts, a))
		if g.halted() {
			return taskPlan{}, errHalted
		}
		if n < 1 || n > a {
			return taskPlan{}, fmt.Errorf("policy %s: %d steps at once, the bar allows 1..%d", pol.Name(), n, a)
		}
		plan.steps[a] = n
	}
	plan.side = g.sideRollOffered() && pol.SideRoll(g.taskView(ts, 0))
	return plan, nil
}

// sideRollOffered: the extra approved action of a task draws a card, which
// out of combat only Rules.TaskDrawsOutOfCombat allows (The Player Side:
// out of combat no additional cards are drawn).
func (g *game) sideRollOffered() bool {
	return g.State.Combat || g.State.Rules.TaskDrawsOutOfCombat
}

// taskStep is a task round after its checks and the policy's answers.
func (g *game) taskStep(r *dice.Roller, i int, plan taskPlan, pol Policy) error {
	s := g.State
	ts := &s.Tasks[i]
	steps := s.Rules.TaskSteps
	avail := StepAvail(plan.bar, ts.Done, steps)
	v := ts.view(&s.Rules, avail)
	k := plan.steps[avail]
	p := ts.Player
	if s.Combat {
		g.takeTurn(p)
		st := &s.Heroes[p].Status
		if st.Stunned || st.LoseAction {
			// The action is lost: the round passes with no work done.
			st.Stunned, st.LoseAction = false, false
			ts.Round++
			g.endTask(r, ts, pol)
			g.afterAction(p, st, false)
			return nil
		}
	}
	ts.Round++
	switch {
	case k > 0:
		for range k {
			eff := v.Skill + ts.Task.Modifiers[ts.Done] - ts.Worse + s.Rules.MultiStep*(k-1)
			if !g.taskRoll(r, ts, eff, pol).Success {
				break
			}
			ts.Done++
		}
	case plan.bar.Special():
		if !g.taskRoll(r, ts, v.Skill+v.Modifier, pol).Success {
			g.State.lend.tv = v // as the round began, as the exact chain asks it
			g.setback(ts, plan.bar, pol.Switch(&g.State.lend.tv))
		}
	case plan.side:
		// Neither the step nor a special case: the extra approved
		// action, a roll to draw a card (and, in combat, the move of one
		// to the pool as after any approved action, through MoveToPool).
		if g.taskRoll(r, ts, v.Skill+v.Modifier, pol).Success {
			g.drawTo(r, p, EvDraw)
		}
	}
	// The Player Side: each round a PC takes an action which has the
	// potential to help move the scene onwards, whether or not successful,
	// one card may go from hand to pool. Work on the task counts whenever
	// it rolls: a step, a special case, or the extra approved action.
	if s.Combat && (k > 0 || plan.bar.Special() || plan.side) && !s.Players[p].Moved {
		s.Players[p].MayMove = true
	}
	g.endTask(r, ts, pol)
	if s.Combat {
		g.afterAction(p, &s.Heroes[p].Status, false)
	}
	return nil
}

// taskRoll is one roll of the task at effective skill eff.
func (g *game) taskRoll(r *dice.Roller, ts *TaskState, eff int, pol Policy) Result {
	res := g.skillRoll(r, ts.Player, ts.Task.Kind, eff, pol)
	if g.Sink != nil {
		g.emit(Event{Kind: EvTask, Who: ts.Player, Target: -1, Card: -1, Roll: res.Roll, Value: ts.Done, Success: res.Success})
	}
	return res
}

// setback is a failed special case's consequence; sw: the player
// switches skills rather than start again after a Critical Problem.
func (g *game) setback(ts *TaskState, bar Bar, sw bool) {
	if g.Sink != nil {
		g.emit(Event{Kind: EvSetback, Who: ts.Player, Target: -1, Card: -1, Value: int(bar), Success: sw && bar == CriticalProblem})
	}
	switch bar {
	case PossibleSetback:
		ts.Done = max(ts.Done-1, 0)
	case Complication:
		ts.Worse += g.State.Rules.Complication
	case CriticalProblem:
		if sw {
			ts.Using = (ts.Using + 1) % ts.Task.skills()
		} else {
			ts.Done = 0
			ts.Restarts++
		}
	}
}

// endTask finishes the task when its steps are done, or when the time is
// up after the last-ditch effort (if the policy makes it); out of combat
// the turned cards then go to the discards.
func (g *game) endTask(r *dice.Roller, ts *TaskState, pol Policy) {
	s := g.State
	steps := s.Rules.TaskSteps
	if ts.Done >= steps {
		ts.Finished = true
	} else if ts.Round >= ts.Task.Rounds {
		if pol.LastDitch(g.taskView(ts, 0)) {
			res := g.taskRoll(r, ts, g.lastDitchSkill(ts), pol)
			ts.LastDitch = true
			if res.Success {
				ts.Done, ts.Finished = steps, true
			}
		}
		ts.Failed = !ts.Finished
	}
	if (ts.Finished || ts.Failed) && !s.Combat {
		s.Discard = append(s.Discard, s.Stack...)
		s.Stack = s.Stack[:0]
	}
}

// lastDitchSkill: the hardest remaining modifier, the multi-step penalty
// for all remaining steps, and the extra -4.
func (g *game) lastDitchSkill(ts *TaskState) int {
	return lastDitch(&g.State.Rules, ts.Task, ts.Done, ts.Worse, ts.Using)
}

func lastDitch(rules *Rules, t Task, done, worse, using int) int {
	sk := t.skill(using)
	hard := t.Modifiers[done]
	for i := done; i < rules.TaskSteps; i++ {
		hard = min(hard, t.Modifiers[i])
	}
	return sk + hard - worse + rules.MultiStep*(rules.TaskSteps-done-1) + rules.LastDitch
}
