package pbta

import "github.com/stakesrpg/stakes/named"

// View is what a policy sees when it is asked: the fight as it stands. It
// is the engine's copy; changing it changes nothing.
type View struct {
	// Exchange is the exchange being played (1 for the first);
	// MaxExchanges when the fight breaks off.
	Exchange, MaxExchanges int
	// PCHarm of Track segments marked; ThreatHarm of Capacity taken.
	PCHarm, Track        int
	ThreatHarm, Capacity int
	// Incoming is the harm one blow of the threat marks on the character
	// (its harm less the character's armor); Outgoing[m] the harm a hit
	// with move m deals the threat (after its armor).
	Incoming int
	Outgoing [numMoves]int
	// Stat[m] is the character's stat for move m.
	Stat [numMoves]int
	// Move and Total are the move rolled and its total, when the player
	// picks a cost or the GM a hard move.
	Move  Move
	Total int
}

// Policy plays the character: the move each exchange, and the cost of a
// success at a cost. Its answers must be legal (Engine.Moves,
// Engine.Costs); an illegal one is refused, never fixed. The exact answers
// assume a policy's answers depend on the View alone.
type Policy interface {
	Name() string
	Move(v *View) Move
	Cost(v *View) Cost
}

// GMPolicy plays the GM: the hard move when the player misses. Its
// answer must be legal (Engine.HardMoves).
type GMPolicy interface {
	Name() string
	HardMove(v *View) HardMove
}

// Table holds the policies of both roles: the one way they reach the
// engine (Engine.Policies).
type Table struct {
	Player Policy
	GM     GMPolicy
}

var policies = named.Registry[Policy]{Kind: "policy", Make: map[string]func() Policy{
	"aggressive": func() Policy { return aggressive{} },
	"careful":    func() Policy { return careful{} },
	"adaptive":   func() Policy { return adaptive{} },
}}

var gmPolicies = named.Registry[GMPolicy]{Kind: "GM policy", Make: map[string]func() GMPolicy{
	"ruthless": func() GMPolicy { return ruthless{} },
	"merciful": func() GMPolicy { return merciful{} },
	"tactical": func() GMPolicy { return tactical{} },
}}

// PolicyByName returns the shipped player policy of that name.
func PolicyByName(name string) (Policy, error) { return policies.ByName(name) }

// PolicyNames lists the shipped player policies: aggressive (always goes
// in hard and trades blows), careful (always plays it cool and holds
// back) and adaptive (goes in hard and trades blows while the character
// can take a blow, plays it cool and holds back once one more would take
// it out).
func PolicyNames() []string { return policies.Names() }

// GMPolicyByName returns the shipped GM policy of that name.
func GMPolicyByName(name string) (GMPolicy, error) { return gmPolicies.ByName(name) }

// GMPolicyNames lists the shipped GM policies: ruthless (always inflicts
// harm), merciful (regroups rather than strike the blow that would take
// the character out) and tactical (regroups once the threat is half
// spent).
func GMPolicyNames() []string { return gmPolicies.Names() }

type aggressive struct{}

func (aggressive) Name() string    { return "aggressive" }
func (aggressive) Move(*View) Move { return GoInHard }
func (aggressive) Cost(*View) Cost { return TradeBlows }

type careful struct{}

func (careful) Name() string    { return "careful" }
func (careful) Move(*View) Move { return PlayItCool }
func (careful) Cost(*View) Cost { return HoldBack }

type adaptive struct{}

// lastBlow reports whether one more blow of the threat takes the
// character out.
func lastBlow(v *View) bool { return v.Incoming > 0 && v.PCHarm+v.Incoming >= v.Track }

func (adaptive) Name() string { return "adaptive" }
func (adaptive) Move(v *View) Move {
	if lastBlow(v) {
		return PlayItCool
	}
	return GoInHard
}
func (adaptive) Cost(v *View) Cost {
	if lastBlow(v) {
		return HoldBack
	}
	return TradeBlows
}

type ruthless struct{}

func (ruthless) Name() string            { return "ruthless" }
func (ruthless) HardMove(*View) HardMove { return InflictHarm }

type merciful struct{}

func (merciful) Name() string { return "merciful" }
func (merciful) HardMove(v *View) HardMove {
	if lastBlow(v) && v.ThreatHarm > 0 {
		return Regroup
	}
	return InflictHarm
}

type tactical struct{}

func (tactical) Name() string { return "tactical" }
func (tactical) HardMove(v *View) HardMove {
	if v.ThreatHarm > 0 && 2*v.ThreatHarm >= v.Capacity {
		return Regroup
	}
	return InflictHarm
}
