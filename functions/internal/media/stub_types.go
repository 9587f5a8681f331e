// Package media: placeholder until the image package is merged (delete this file then).
package media

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Images are the site paths of a product's two pictures.
type Images struct{ Small, Large string }

// Problem is a picture that is not acceptable.
type Problem struct{ Msg string }

func (p *Problem) Error() string { return p.Msg }

// Store is where published images go (stub).
type Store interface {
	Exists(ctx context.Context, key string) (bool, error)
	Put(ctx context.Context, key string, data []byte, contentType string) error
}

// NewDirStore (stub).
func NewDirStore(root string) Store { panic("stub") }

// NewS3Store (stub).
func NewS3Store(client *s3.Client, bucket, prefix string) Store { panic("stub") }

// Process (stub).
func Process(ctx context.Context, st Store, name string, data []byte) (Images, error) { panic("stub") }
