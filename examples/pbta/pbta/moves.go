package pbta

import "github.com/stakesrpg/stakes/named"

// Move is what the player character does in an exchange: one of the
// basic moves of a Powered by the Apocalypse fight, in our words.
type Move int

const (
	// GoInHard is a straight attack (Apocalypse World's "seize by force"
	// and "go aggro" in one): roll plus Hard; a hit deals the character's
	// harm plus Rules.TerribleHarm.
	GoInHard Move = iota
	// PlayItCool is a measured fight (like "do something under fire"):
	// roll plus Cool; a hit deals the character's harm.
	PlayItCool
	numMoves
)

var moveNames = named.Enum[Move]{"go_in_hard", "play_it_cool"}

func (m Move) String() string                { return moveNames.String(m) }
func (m Move) MarshalText() ([]byte, error)  { return moveNames.Marshal(m) }
func (m *Move) UnmarshalText(b []byte) error { return moveNames.Unmarshal(b, m) }
func (m Move) valid() bool                   { return moveNames.Valid(m) }

// words is the move as narration says it.
func (m Move) words() string {
	switch m {
	case GoInHard:
		return "goes in hard"
	case PlayItCool:
		return "plays it cool"
	}
	return m.String()
}

// stat is the character's stat the move rolls with.
func (m Move) stat(c *Character) int {
	if m == GoInHard {
		return c.Hard
	}
	return c.Cool
}

// Cost is what the player picks to pay for a success at a cost (7-9).
type Cost int

const (
	// TradeBlows: the character deals full harm and suffers the threat's.
	TradeBlows Cost = iota
	// HoldBack: the character suffers nothing but deals Rules.HoldBack
	// less harm.
	HoldBack
	numCosts
)

var costNames = named.Enum[Cost]{"trade_blows", "hold_back"}

func (c Cost) String() string                { return costNames.String(c) }
func (c Cost) MarshalText() ([]byte, error)  { return costNames.Marshal(c) }
func (c *Cost) UnmarshalText(b []byte) error { return costNames.Unmarshal(b, c) }
func (c Cost) valid() bool                   { return costNames.Valid(c) }

// HardMove is what the GM does when the player misses (6-).
type HardMove int

const (
	// InflictHarm: the threat deals its harm, "as established".
	InflictHarm HardMove = iota
	// Regroup: the threat shakes off Rules.Regroup harm (falls back,
	// binds a wound, calls a friend); open only once it is hurt.
	Regroup
	numHardMoves
)

var hardMoveNames = named.Enum[HardMove]{"inflict_harm", "regroup"}

func (h HardMove) String() string                { return hardMoveNames.String(h) }
func (h HardMove) MarshalText() ([]byte, error)  { return hardMoveNames.Marshal(h) }
func (h *HardMove) UnmarshalText(b []byte) error { return hardMoveNames.Unmarshal(b, h) }
func (h HardMove) valid() bool                   { return hardMoveNames.Valid(h) }

// Band is how a roll reads: a miss (6-), a success at a cost (7-9) or a
// full success (10+).
type Band int

const (
	Miss Band = iota
	Partial
	Full
)

var bandNames = named.Enum[Band]{"miss", "partial", "full"}

func (b Band) String() string                 { return bandNames.String(b) }
func (b Band) MarshalText() ([]byte, error)   { return bandNames.Marshal(b) }
func (b *Band) UnmarshalText(bs []byte) error { return bandNames.Unmarshal(bs, b) }

// BandOf reads a total under the rules.
func (rl Rules) BandOf(total int) Band {
	switch {
	case total >= rl.FullAt:
		return Full
	case total >= rl.PartialAt:
		return Partial
	}
	return Miss
}

// Phase is where an exchange stands: waiting for the player's move, for
// the player's cost after a 7-9, or for the GM's hard move after a miss.
type Phase int

const (
	AwaitMove Phase = iota
	AwaitCost
	AwaitHardMove
)

var phaseNames = named.Enum[Phase]{"move", "cost", "hard_move"}

func (p Phase) String() string                { return phaseNames.String(p) }
func (p Phase) MarshalText() ([]byte, error)  { return phaseNames.Marshal(p) }
func (p *Phase) UnmarshalText(b []byte) error { return phaseNames.Unmarshal(b, p) }
