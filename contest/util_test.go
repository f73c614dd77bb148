package contest

import (
	"bytes"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

// diff is cmp.Diff that leaves out a State's scratch space, which no step
// promises anything about.
func diff(want, got any, opts ...cmp.Option) string {
	return cmp.Diff(want, got, append(opts, cmpopts.IgnoreUnexported(State{}))...)
}

func ptr[T any](v T) *T { return &v }
