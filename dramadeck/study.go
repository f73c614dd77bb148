package dramadeck

import (
	"errors"
	"fmt"

	"github.com/stakesrpg/stakes/dice"
	"github.com/stakesrpg/stakes/named"
)

// Study is what a Scenario plays from its start to its end: one combat
// encounter (the default), a Dramatic Skill Resolution, a scene, or an
// adventure of several scenes and Acts.
type Study uint8

// Studies.
const (
	// StudyEncounter is one combat encounter, to its end.
	StudyEncounter Study = iota
	// StudyTask is hero 0's Dramatic Skill Resolution (Scenario.Task): out
	// of combat a card is turned for each round; with
	// Scenario.TaskInCombat it is worked as his action while the fight goes
	// on, and finished out of combat if the heroes win the fight first.
	StudyTask
	// StudyScene is a fight in which hero 0 works the task, finished out
	// of combat if the heroes hold the field, then the end of the scene
	// (EndScene: pools back to hands, discards, hands refilled).
	StudyScene
	// StudyAdventure is Scenario.Acts Acts of Scenario.ScenesPerAct scenes,
	// each a fight against the villains as they begin, closed by the end
	// of the scene; each Act's end pays the subplots in play (EndAct), and
	// the adventure's end pays Drama cards held and Glory played
	// (EndAdventure). Between scenes the heroes recover: HP and FP to
	// their maxima, back in the fight unless dead [ours].
	StudyAdventure
	numStudies
)

var studyNames = named.Enum[Study]{"encounter", "task", "scene", "adventure"}

func (t Study) String() string                { return studyNames.String(t) }
func (t Study) MarshalText() ([]byte, error)  { return studyNames.Marshal(t) }
func (t *Study) UnmarshalText(b []byte) error { return studyNames.Unmarshal(b, t) }

// Stage is where a study beyond one encounter stands (Plan).
type Stage uint8

// Stages of a study.
const (
	// StageEncounter: a fight is under way (Engine.Step's combat steps).
	StageEncounter Stage = iota
	// StageTask: the task is worked out of combat, a card turned a round.
	StageTask
	// StageSceneEnd: the scene ends next (EndScene).
	StageSceneEnd
	// StageNext: the next scene begins, after the Act's end if the Act is
	// over, or the adventure ends.
	StageNext
	// StageDone: the study is over.
	StageDone
	numStages
)

var stageNames = named.Enum[Stage]{"encounter", "task", "scene_end", "next", "done"}

func (t Stage) String() string                { return stageNames.String(t) }
func (t Stage) MarshalText() ([]byte, error)  { return stageNames.Marshal(t) }
func (t *Stage) UnmarshalText(b []byte) error { return stageNames.Unmarshal(b, t) }

// Plan is the play beyond one encounter that Engine.Step follows, and
// what it has counted so far; a State without a Plan plays one encounter.
// The study's task is State.Tasks[0].
type Plan struct {
	Study Study `json:"study"`
	Stage Stage `json:"stage"`
	// InCombat: the task is worked during the fight (StudyTask).
	InCombat bool `json:"in_combat,omitempty"`
	// Acts and Scenes (per Act) of an adventure.
	Acts   int `json:"acts,omitempty"`
	Scenes int `json:"scenes,omitempty"`
	// Villains are the opposition as each scene begins (an adventure).
	Villains []Character `json:"villains,omitempty"`
	// Counted as play goes: scenes won and lost, combat rounds of the
	// scenes ended, Possibilities awarded, and at the end the cards held
	// in hands (a scene), Drama cards held, Glory played and subplots in
	// play (an adventure).
	Won      int `json:"won,omitempty"`
	Lost     int `json:"lost,omitempty"`
	Rounds   int `json:"rounds,omitempty"`
	Awarded  int `json:"awarded,omitempty"`
	Held     int `json:"held,omitempty"`
	Drama    int `json:"drama,omitempty"`
	Glory    int `json:"glory,omitempty"`
	Subplots int `json:"subplots,omitempty"`
}

// maxScenes bounds an adventure's Acts and its scenes per Act.
const maxScenes = 20

// check validates a restored plan against its state.
func (p *Plan) check(s *State) error {
	switch {
	case p.Study >= numStudies || p.Study == StudyEncounter:
		return fmt.Errorf("plan.study: %v is not a study beyond one encounter", p.Study)
	case p.Stage >= numStages:
		return fmt.Errorf("plan.stage: %d is not a stage", p.Stage)
	case p.Study != StudyAdventure && (p.Acts != 0 || p.Scenes != 0 || len(p.Villains) != 0):
		return errors.New("plan: acts, scenes and villains belong to an adventure")
	case p.Study == StudyAdventure && (p.Acts < 1 || p.Acts > maxScenes || p.Scenes < 1 || p.Scenes > maxScenes):
		return fmt.Errorf("plan: %d acts of %d scenes; each must be 1..%d", p.Acts, p.Scenes, maxScenes)
	case p.Study == StudyAdventure && len(p.Villains) != len(s.Villains):
		return fmt.Errorf("plan.villains: %d, the state has %d", len(p.Villains), len(s.Villains))
	case p.Study != StudyAdventure && len(s.Tasks) == 0:
		return errors.New("plan: the study's task (tasks[0]) is missing")
	case p.Stage == StageTask && (s.Combat || p.Study == StudyAdventure):
		return errors.New("plan.stage: the task is worked out of combat, in a task or a scene")
	case p.Stage == StageNext && p.Study != StudyAdventure:
		return errors.New("plan.stage: only an adventure has a next scene")
	}
	for _, n := range [...]int{p.Won, p.Lost, p.Rounds, p.Awarded, p.Held, p.Drama, p.Glory, p.Subplots} {
		if n < 0 || n > maxCounter {
			return fmt.Errorf("plan: counts must be 0..%d", maxCounter)
		}
	}
	for i := range p.Villains {
		if err := p.Villains[i].check(fmt.Sprintf("plan.villains[%d]", i)); err != nil {
			return err
		}
	}
	return nil
}

// done reports whether the game in g has ended: its study, or its one
// encounter.
func (g *game) done() bool {
	if p := g.State.Plan; p != nil {
		return p.Stage == StageDone
	}
	return g.Over()
}

// taskOpen reports whether the study's task still goes on.
func (g *game) taskOpen() bool {
	ts := &g.State.Tasks[0]
	return !ts.Finished && !ts.Failed
}

// stepPlan is Step for a state with a Plan: the stage's next step.
func (g *game) stepPlan(r *dice.Roller, heroes, gm Policy) error {
	s := g.State
	p := s.Plan
	switch p.Stage {
	case StageDone:
		return fmt.Errorf("the %v is over", p.Study)
	case StageTask:
		if err := g.TaskRound(r, 0, heroes); err != nil {
			return policyErr(heroes, err)
		}
		if !g.taskOpen() {
			p.Stage = g.afterTask()
		}
		return nil
	case StageEncounter:
		if !g.Over() {
			if err := g.stepCombat(r, heroes, gm); err != nil {
				return err
			}
			if p.Study == StudyTask && !g.taskOpen() {
				p.Stage = StageDone // the task is over: so is the study
			}
			return nil
		}
		if g.mustStop() {
			return errHalted
		}
		p.Stage = g.afterEncounter()
		return nil
	case StageSceneEnd:
		return g.endStudyScene(r, heroes)
	}
	if g.mustStop() {
		return errHalted
	}
	return g.nextScene(r)
}

// afterEncounter is the stage after a fight's end. The task goes on out
// of combat if its hero holds the field (the heroes won, or the fight
// ran out of time in a scene) and is still in the fight; otherwise it is
// abandoned, unfinished.
func (g *game) afterEncounter() Stage {
	s := g.State
	p := s.Plan
	if p.Study == StudyAdventure {
		return StageSceneEnd
	}
	held := s.Outcome == HeroesWin || p.Study == StudyScene && s.Outcome == TimedOut
	if g.taskOpen() && held && s.Heroes[s.Tasks[0].Player].Active() {
		p.Rounds += s.Round
		g.endCombat()
		return StageTask
	}
	return g.afterTask()
}

// afterTask is the stage after the task ends (or is abandoned).
func (g *game) afterTask() Stage {
	if g.State.Plan.Study == StudyScene {
		return StageSceneEnd
	}
	return StageDone
}

// endStudyScene ends the scene (EndScene), counting the fight's result
// and the cards held after it.
func (g *game) endStudyScene(r *dice.Roller, heroes Policy) error {
	s := g.State
	p := s.Plan
	fought := 0
	if s.Combat {
		fought = s.Round
	}
	// The discards are asked first: a refused one changes nothing.
	if err := g.EndScene(r, heroes); err != nil {
		return policyErr(heroes, err)
	}
	p.Rounds += fought
	switch s.Outcome {
	case HeroesWin:
		p.Won++
	case VillainsWin:
		p.Lost++
	}
	p.Held = 0
	for q := range s.Players {
		p.Held += len(s.Players[q].Hand)
	}
	p.Stage = StageNext
	if p.Study == StudyScene {
		p.Stage = StageDone
	}
	return nil
}

// nextScene closes the Act if its scenes are played (and the adventure
// after its last Act), else begins the next scene: the villains as they
// began, the heroes recovered, a new fight.
func (g *game) nextScene(r *dice.Roller) error {
	s := g.State
	p := s.Plan
	// EndScene counted the scene ended: Scene - 1 scenes are played.
	if (s.Scene-1)%p.Scenes == 0 {
		g.endStudyAct()
		if s.Act > p.Acts {
			g.endStudyAdventure()
			return nil
		}
	}
	copy(s.Villains, p.Villains)
	for i := range s.Heroes {
		c := &s.Heroes[i]
		if !c.Status.Dead {
			c.HP, c.FP = c.MaxHP, c.MaxFP
			c.Status.Out, c.Status.Fled = false, false
		}
	}
	s.Outcome = Ongoing
	p.Stage = StageEncounter
	return g.StartCombat(s.Dramatic)
}

// endStudyAct is EndAct, counting the subplots' Possibilities.
func (g *game) endStudyAct() {
	s := g.State
	before := 0
	for i := range s.Heroes {
		before += s.Heroes[i].Possibilities
	}
	g.EndAct()
	for i := range s.Heroes {
		s.Plan.Awarded += s.Heroes[i].Possibilities
	}
	s.Plan.Awarded = min(s.Plan.Awarded-before, maxCounter)
}

// endStudyAdventure is EndAdventure, counting what it pays for first.
func (g *game) endStudyAdventure() {
	s := g.State
	p := s.Plan
	p.Glory = s.Glory
	for q := range s.Players {
		for _, pile := range [2][]int{s.Players[q].Hand, s.Players[q].Pool} {
			for _, id := range pile {
				switch n := s.Deck.Cards[id].Name; {
				case n == Drama:
					p.Drama++
				case n.Kind() == Subplot:
					p.Subplots++
				}
			}
		}
	}
	before := 0
	for q := range s.Players {
		before += s.Players[q].Award
	}
	g.endAdventure(nil)
	for q := range s.Players {
		p.Awarded += s.Players[q].Award
	}
	p.Awarded = min(p.Awarded-before, maxCounter)
	p.Stage = StageDone
}

// outcome is the category and metrics of the finished study (see
// Scenario.Categories and Metrics).
func (p *Plan) outcome(s *State, metrics []int) int {
	switch p.Study {
	case StudyTask:
		ts := &s.Tasks[0]
		vals := [...]int{ts.Round, ts.Done, ts.Restarts, b2n(ts.Using != 0), ts.Worse, p.Rounds + s.Round*b2n(s.Combat), s.CardsDrawn}
		copy(metrics, vals[:])
		switch {
		case ts.Finished && ts.LastDitch:
			return 1
		case ts.Finished:
			return 0
		case ts.Failed:
			return 2
		}
		return 3 // abandoned: the fight ended the work
	case StudyScene:
		ts := &s.Tasks[0]
		hd, vd := down(s)
		vals := [...]int{p.Rounds, b2n(ts.Finished), ts.Round, s.CardsPlayed, s.CardsDrawn, p.Held, hd, vd}
		copy(metrics, vals[:])
		return int(s.Outcome) - 1
	}
	vals := [...]int{p.Rounds, p.Won, p.Lost, p.Awarded, p.Drama, p.Glory, p.Subplots, s.CardsPlayed}
	copy(metrics, vals[:])
	switch scenes := p.Acts * p.Scenes; {
	case p.Won == scenes:
		return 0
	case p.Won > 0:
		return 1
	}
	return 2
}

func b2n(b bool) int {
	if b {
		return 1
	}
	return 0
}
