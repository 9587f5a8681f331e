package api

import (
	"go/ast"
	"go/types"
	"reflect"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestEveryAnswerIsARegisteredAnswerType type-checks the package and fails on a call of
// encode whose value is not an answer type of this package reached from answerTypes: a
// map, an anonymous struct, or another package's struct (a store or domain type) sent as
// it is, or an answer type the wire rules' test and the site's generated types miss.
func TestEveryAnswerIsARegisteredAnswerType(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("type-checks the package from source")
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
		packages.NeedTypes | packages.NeedTypesInfo}, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading the package: %v", pkgs)
	}
	pkg := pkgs[0]
	registered := map[string]bool{}
	for _, typ := range AnswerTypes() {
		reachable(typ, registered)
	}
	encodeFn := pkg.Types.Scope().Lookup("encode")
	for _, file := range pkg.Syntax {
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 3 {
				return true
			}
			fn := call.Fun
			if ix, ok := fn.(*ast.IndexExpr); ok {
				fn = ix.X
			}
			if id, ok := fn.(*ast.Ident); !ok || pkg.TypesInfo.Uses[id] != encodeFn {
				return true
			}
			typ := pkg.TypesInfo.TypeOf(call.Args[2])
			for {
				switch u := typ.(type) {
				case *types.Pointer:
					typ = u.Elem()
					continue
				case *types.Slice:
					typ = u.Elem()
					continue
				}
				break
			}
			named, ok := typ.(*types.Named)
			if !ok || named.Obj().Pkg() != pkg.Types || !registered[named.Obj().Name()] {
				t.Errorf("%s: encodes %s, which is not an answer type registered in answerTypes (answers.go)",
					pkg.Fset.Position(call.Pos()), typ)
			}
			return true
		})
	}
}

// reachable adds the names of typ's struct types, and of those it holds, to names.
func reachable(typ reflect.Type, names map[string]bool) {
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct || names[typ.Name()] {
		return
	}
	if typ.Name() != "" {
		names[typ.Name()] = true
	}
	for i := range typ.NumField() {
		reachable(typ.Field(i).Type, names)
	}
}
