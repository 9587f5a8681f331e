package catimport

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tradeshop/functions/internal/media"
)

// FolderImages resolves image cells to picture files in dir (a name or a path inside
// it), published to st. Nothing outside dir is read.
func FolderImages(dir string, st media.Store) ImageResolver {
	return func(ctx context.Context, cell string) (media.Images, error) {
		rel := filepath.Clean(filepath.FromSlash(cell))
		if filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return media.Images{}, &media.Problem{Msg: "is not inside the pictures folder"}
		}
		data, err := os.ReadFile(filepath.Join(dir, rel))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return media.Images{}, &media.Problem{Msg: fmt.Sprintf("is not in the pictures folder %s", dir)}
		case err != nil:
			return media.Images{}, err
		}
		return media.Process(ctx, st, cell, data)
	}
}

// DryRun is a media store that publishes nothing: a dry run checks and converts each
// picture but writes no file.
type DryRun struct{}

// Exists answers false: every picture is checked.
func (DryRun) Exists(context.Context, string) (bool, error) { return false, nil }

// Put writes nothing.
func (DryRun) Put(context.Context, string, []byte, string) error { return nil }
