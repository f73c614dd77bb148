module github.com/stakesrpg/stakes

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	golang.org/x/exp v0.0.0-20261014143641-f0251eb4aa3e
	gonum.org/v1/gonum v0.17.0
)
