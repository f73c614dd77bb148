package sim

import (
	"fmt"

	"github.com/stakesrpg/stakes/dice"
)

// Runner is the trial face every rule package exposes: play one complete
// trial from the scenario's start, fill metrics (one slot per metric name),
// and return the outcome category's index, or the error that stopped the
// trial (a policy's illegal answer, a nil Roller): a trial that failed has
// no outcome, and sim stops the run with its error. A Runner is used by one
// goroutine at a time.
type Runner interface {
	Trial(r *dice.Roller, metrics []int) (category int, err error)
}

// FromRunner adapts a rule package's runner constructor (for example a
// scenario's NewRunner method value) into a Spec.New: each worker gets its
// own runner, and the runner's metrics land in Outcome.Metrics[:metrics].
func FromRunner[R Runner](newRunner func() (R, error), metrics int) func() (Trial, error) {
	return func() (Trial, error) {
		if newRunner == nil {
			return nil, fmt.Errorf("%w: nil runner constructor", ErrInvalid)
		}
		if metrics < 0 || metrics > MaxMetrics {
			return nil, fmt.Errorf("%w: %d metrics; allowed 0..%d", ErrInvalid, metrics, MaxMetrics)
		}
		rn, err := newRunner()
		if err != nil {
			return nil, err
		}
		return func(r *dice.Roller, o *Outcome) (err error) {
			o.Category, err = rn.Trial(r, o.Metrics[:metrics])
			return err
		}, nil
	}
}
