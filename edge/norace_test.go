//go:build !race

package edge

const raceOn = false
