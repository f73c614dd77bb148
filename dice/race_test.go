//go:build race

package dice

// raceEnabled: the race detector makes sync.Pool drop what it is given
// now and then, so a borrowed buffer may be made again.
const raceEnabled = true
