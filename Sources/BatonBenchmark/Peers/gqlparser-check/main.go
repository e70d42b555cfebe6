// gqlparser-check: the gqlparser side of `BatonBenchmark scale`. It builds a schema from SDL
// and validates every document, each on its own, with gqlparser v2's full rule set, printing
// one line per error and a summary. Built at run time by the benchmark in GOPATH mode against
// Debian's golang-github-vektah-gqlparser-dev (never committed as a binary).
//
// usage: gqlparser-check SCHEMA DOC_OR_DIR...   (folders are searched for .graphql and .gql files)
// exit status: 0 no errors, 1 errors, 2 usage or schema failure.
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: gqlparser-check SCHEMA DOC_OR_DIR...")
		os.Exit(2)
	}
	schemaText, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	schema, gerr := gqlparser.LoadSchema(&ast.Source{Name: os.Args[1], Input: string(schemaText)})
	if gerr != nil {
		fmt.Fprintln(os.Stderr, gerr)
		os.Exit(2)
	}
	var files []string
	for _, root := range os.Args[2:] {
		filepath.WalkDir(root, func(path string, entry fs.DirEntry, err error) error {
			if err == nil && !entry.IsDir() && (strings.HasSuffix(path, ".graphql") || strings.HasSuffix(path, ".gql")) {
				files = append(files, path)
			}
			return nil
		})
	}
	sort.Strings(files)
	errors := 0
	operations := 0
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		document, list := gqlparser.LoadQuery(schema, string(text))
		for _, e := range list {
			fmt.Printf("%s: %s\n", file, e.Message)
		}
		errors += len(list)
		if document != nil {
			operations += len(document.Operations)
		}
	}
	fmt.Printf("gqlparser: %d files, %d valid operations, %d errors\n", len(files), operations, errors)
	if errors > 0 {
		os.Exit(1)
	}
}
