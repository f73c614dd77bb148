//go:build race

package edge

// raceOn trims trial counts under the race detector, which slows the
// engine about tenfold.
const raceOn = true
