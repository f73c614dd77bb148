//go:build !race

package dice

const raceEnabled = false
