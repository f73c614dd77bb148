package dice

// ShuffleInts permutes s uniformly (Fisher-Yates) in place: the same draws
// and the same permutation as Shuffle(len(s), swap) with a swap of s[i]
// and s[j], for a pile of ints (a deck of card numbers, say) with no
// function value to call for each exchange.
func (r *Roller) ShuffleInts(s []int) {
	for i := len(s) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		s[i], s[j] = s[j], s[i]
	}
}
