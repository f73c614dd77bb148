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
	// switch to (the text asks the player to describe one).
	Alternate int      `json:"alternate"`
	Modifiers [4]int   `json:"modifiers"` // per step A..D
	Rounds    int      `json:"rounds"`    // time limit
	Kind      RollKind `json:"kind"`      // roll kind for card purposes
}

// Check reports a task the rules cannot run.
func (t *Task) Check() error {
	switch {
	case t.Rounds < 1 || t.Rounds > 100:
		return fmt.Errorf("task.rounds: %d, must be 1..100", t.Rounds)
	case t.Skill < -10 || t.Skill > 40 || t.Alternate < -10 || t.Alternate > 40:
		return errors.New("task.skill/alternate: must be -10..40")
	case t.Kind > Interpersonal:
		return fmt.Errorf("task.kind: %d, must be 0..2", t.Kind)
	}
	return nil
}

// TaskState is a Dramatic Skill Resolution in progress.
type TaskState struct {
	Task     Task `json:"task"`
	Player   int  `json:"player"`   // whose hero works on it
	Done     int  `json:"done"`     // steps completed (next is A+Done)
	Worse    int  `json:"worse"`    // Complication penalty so far
	Round    int  `json:"round"`    // rounds used
	Switched bool `json:"switched"` // working with the Alternate skill
	Restarts int  `json:"restarts"`
	Finished bool `json:"finished"`
	Failed   bool `json:"failed"`
	// LastDitch: completed (or failed) by the last-ditch effort.
	LastDitch bool `json:"last_ditch"`
}

// TaskView is what a policy sees when deciding about a task.
type TaskView struct {
	Skill      int  // skill in use (Skill, or Alternate once switched)
	Alternate  int  // the other skill
	Modifier   int  // modifier of the next step, Complications included
	Done       int  // steps completed
	Steps      int  // steps in the task
	Avail      int  // steps that may be attempted at once now (Steps only)
	RoundsLeft int  // rounds left after this one
	Switched   bool // already switched skills
}

func (ts *TaskState) view(rules *Rules, avail int) TaskView {
	v := TaskView{Skill: ts.Task.Skill, Alternate: ts.Task.Alternate, Done: ts.Done,
		Steps: rules.TaskSteps, Avail: avail, RoundsLeft: ts.Task.Rounds - ts.Round, Switched: ts.Switched}
	if ts.Switched {
		v.Skill, v.Alternate = v.Alternate, v.Skill
	}
	if ts.Done < rules.TaskSteps {
		v.Modifier = ts.Task.Modifiers[ts.Done] - ts.Worse
	}
	return v
}

// StartTask begins a Dramatic Skill Resolution for player p's hero.
func (g *Game) StartTask(p int, t Task) (TaskState, error) {
	if err := g.checkPlayer(p); err != nil {
		return TaskState{}, err
	}
	if err := t.Check(); err != nil {
		return TaskState{}, err
	}
	return TaskState{Task: t, Player: p}, nil
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

// TaskRound plays one round of the task: out of combat the GM turns a new
// card; in combat the round's action stack card is read. Then TaskStep.
func (g *Game) TaskRound(r *dice.Roller, ts *TaskState, pol Policy) error {
	if err := g.checkTask(ts, pol); err != nil {
		return err
	}
	if !g.State.Combat {
		g.flip(r)
	}
	if len(g.State.Stack) == 0 {
		return errors.New("no card on the action stack")
	}
	return g.taskStep(r, ts, g.Deck.Cards[g.State.Stack[len(g.State.Stack)-1]].Bar, pol, 0)
}

func (g *Game) checkTask(ts *TaskState, pol Policy) error {
	switch {
	case pol == nil:
		return errors.New("the task needs a policy")
	case ts.Finished || ts.Failed:
		return errors.New("the task is over")
	case ts.Round >= ts.Task.Rounds:
		return errors.New("the time limit has expired (only the last-ditch effort remains)")
	}
	if err := g.checkPlayer(ts.Player); err != nil {
		return err
	}
	return ts.Task.Check()
}

// TaskStep plays one round of the task with the skill bar bar (a tool with
// a physical deck may call it directly): attempt the next step(s) if shown
// (-2 per extra step, on each roll, in order), else roll against a special
// case, else take the extra approved action (a roll to draw a card). When
// the time runs out the policy may make the last-ditch effort.
func (g *Game) TaskStep(r *dice.Roller, ts *TaskState, bar Bar, pol Policy) error {
	if err := g.checkTask(ts, pol); err != nil {
		return err
	}
	if bar >= numBars {
		return fmt.Errorf("skill bar %d does not exist", bar)
	}
	return g.taskStep(r, ts, bar, pol, 0)
}

// AttemptSteps is TaskStep with the player naming the steps: k steps from
// step from (0 for A). Attempting a step out of order (C before B), or steps
// the bar does not show, is an error and changes nothing.
func (g *Game) AttemptSteps(r *dice.Roller, ts *TaskState, bar Bar, from, k int, pol Policy) error {
	if err := g.checkTask(ts, pol); err != nil {
		return err
	}
	if bar >= numBars {
		return fmt.Errorf("skill bar %d does not exist", bar)
	}
	if from != ts.Done {
		return fmt.Errorf("step %c cannot be attempted: steps go in order and the next is %c", 'A'+rune(from), 'A'+rune(ts.Done))
	}
	avail := StepAvail(bar, ts.Done, g.Rules.TaskSteps)
	if k < 1 || k > avail {
		return fmt.Errorf("the skill bar shows %v: %d step(s) from %c may be attempted, not %d", bar, avail, 'A'+rune(from), k)
	}
	return g.taskStep(r, ts, bar, pol, k)
}

// taskStep is TaskStep after its checks; k > 0 fixes the steps attempted.
func (g *Game) taskStep(r *dice.Roller, ts *TaskState, bar Bar, pol Policy, k int) error {
	steps := g.Rules.TaskSteps
	avail := StepAvail(bar, ts.Done, steps)
	v := ts.view(&g.Rules, avail)
	if avail > 0 && k == 0 {
		k = pol.Steps(v)
		if k < 1 || k > avail {
			return fmt.Errorf("policy %s: %d steps at once, the bar %v allows 1..%d", pol.Name(), k, bar, avail)
		}
	}
	ts.Round++
	p, kind := ts.Player, ts.Task.Kind
	switch {
	case k > 0:
		for i := 0; i < k; i++ {
			eff := v.Skill + ts.Task.Modifiers[ts.Done] - ts.Worse + g.Rules.MultiStep*(k-1)
			res := g.skillRollOf(r, p, g.char(p), kind, eff, pol)
			if g.Sink != nil {
				g.emit(Event{Kind: EvTask, Who: p, Target: -1, Card: -1, Roll: res.Roll, Value: ts.Done, Success: res.Success})
			}
			if !res.Success {
				break
			}
			ts.Done++
		}
	case bar.Special():
		res := g.skillRollOf(r, p, g.char(p), kind, v.Skill+v.Modifier, pol)
		if g.Sink != nil {
			g.emit(Event{Kind: EvTask, Who: p, Target: -1, Card: -1, Roll: res.Roll, Value: ts.Done, Success: res.Success})
		}
		if !res.Success {
			switch bar {
			case PossibleSetback:
				ts.Done = max(ts.Done-1, 0)
			case Complication:
				ts.Worse += g.Rules.Complication
			case CriticalProblem:
				if pol.Switch(v) {
					ts.Switched = !ts.Switched
				} else {
					ts.Done = 0
					ts.Restarts++
				}
			}
		}
	default:
		// Neither the step nor a special case: the extra approved action.
		res := g.skillRollOf(r, p, g.char(p), kind, v.Skill+v.Modifier, pol)
		if g.Sink != nil {
			g.emit(Event{Kind: EvTask, Who: p, Target: -1, Card: -1, Roll: res.Roll, Value: ts.Done, Success: res.Success})
		}
		if res.Success && g.drawTo(r, p, EvDraw) {
			if id := pol.Move(g, p); id >= 0 {
				pl := &g.State.Players[p]
				i := indexOf(pl.Hand, id)
				if i < 0 {
					return fmt.Errorf("policy %s: card %d to pool is not in player %d's hand", pol.Name(), id, p)
				}
				pl.Hand = remove(pl.Hand, i)
				pl.Pool = append(pl.Pool, id)
				if g.Sink != nil {
					g.emit(Event{Kind: EvMove, Who: p, Target: -1, Card: id})
				}
			}
		}
	}
	if ts.Done >= steps {
		ts.Finished = true
	} else if ts.Round >= ts.Task.Rounds {
		if pol.LastDitch(ts.view(&g.Rules, 0)) {
			res := g.skillRollOf(r, p, g.char(p), kind, g.lastDitchSkill(ts), pol)
			if g.Sink != nil {
				g.emit(Event{Kind: EvTask, Who: p, Target: -1, Card: -1, Roll: res.Roll, Value: ts.Done, Success: res.Success})
			}
			ts.LastDitch = true
			if res.Success {
				ts.Done, ts.Finished = steps, true
			}
		}
		ts.Failed = !ts.Finished
	}
	if (ts.Finished || ts.Failed) && !g.State.Combat {
		g.State.Discard = append(g.State.Discard, g.State.Stack...)
		g.State.Stack = g.State.Stack[:0]
	}
	return nil
}

// lastDitchSkill: the hardest remaining modifier, the multi-step penalty
// for all remaining steps, and the extra -4.
func (g *Game) lastDitchSkill(ts *TaskState) int {
	return lastDitch(&g.Rules, ts.Task, ts.Done, ts.Worse, ts.Switched)
}

func lastDitch(rules *Rules, t Task, done, worse int, switched bool) int {
	sk := t.Skill
	if switched {
		sk = t.Alternate
	}
	hard := t.Modifiers[done]
	for i := done; i < rules.TaskSteps; i++ {
		hard = min(hard, t.Modifiers[i])
	}
	return sk + hard - worse + rules.MultiStep*(rules.TaskSteps-done-1) + rules.LastDitch
}
