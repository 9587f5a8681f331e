// Package genfile is the command line every generator of a committed file shares
// (cmd/apitypes, cmd/deployment): -o writes the file, -check compares the committed file
// with what would be written and exits 1 naming the command to run (the static suite's
// staleness checks, scripts/test.mjs), and neither prints it to standard output.
package genfile

import (
	"bytes"
	"flag"
	"fmt"
	"os"
)

// Main parses the flags and writes, checks or prints what make answers. name prefixes
// every message; madeBy ends the -check refusal "FILE is not what …" ("the Go answer
// types make").
func Main(name, what, madeBy string, make func() ([]byte, error)) {
	out := flag.String("o", "", "write "+what+" to this file")
	check := flag.String("check", "", "compare this file with what would be written; exit 1 if it differs")
	flag.Parse()
	content, err := make()
	if err != nil {
		fail(name, err)
	}
	switch {
	case *check != "":
		have, err := os.ReadFile(*check)
		if err != nil || !bytes.Equal(have, content) {
			fmt.Fprintf(os.Stderr, "%s: %s is not what %s: run `cd functions && go generate ./internal/api/` and commit it\n", name, *check, madeBy)
			os.Exit(1)
		}
	case *out != "":
		if err := os.WriteFile(*out, content, 0o644); err != nil {
			fail(name, err)
		}
	default:
		os.Stdout.Write(content)
	}
}

func fail(name string, err error) {
	fmt.Fprintln(os.Stderr, name+":", err)
	os.Exit(1)
}
