package media

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// Store is where published images go. Keys are relative to the media root, e.g.
// "products/3f2a…-s.webp", which the site serves at /media/products/3f2a…-s.webp.
type Store interface {
	Exists(ctx context.Context, key string) (bool, error)
	Put(ctx context.Context, key string, data []byte, contentType string) error
}

// CacheControl is sent with every published image: names are content hashes, so an
// image never changes under its name.
const CacheControl = "public, max-age=31536000, immutable"

// NewDirStore answers a Store keeping images as files under root (locally ".local/media",
// which the local edge serves at /media/). A file is written to a temporary name in its
// folder and renamed into place, so a reader never sees half an image.
func NewDirStore(root string) Store { return dirStore{root: root} }

type dirStore struct{ root string }

func (d dirStore) path(key string) (string, error) {
	if !fs.ValidPath(key) || key == "." {
		return "", fmt.Errorf("media: bad key %q", key)
	}
	return filepath.Join(d.root, filepath.FromSlash(key)), nil
}

func (d dirStore) Exists(_ context.Context, key string) (bool, error) {
	p, err := d.path(key)
	if err != nil {
		return false, err
	}
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return fi.Mode().IsRegular(), nil
}

func (d dirStore) Put(_ context.Context, key string, data []byte, _ string) (err error) {
	p, err := d.path(key)
	if err != nil {
		return err
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), p)
}

// s3API is the part of *s3.Client the store uses.
type s3API interface {
	HeadObject(ctx context.Context, in *s3.HeadObjectInput, opts ...func(*s3.Options)) (*s3.HeadObjectOutput, error)
	PutObject(ctx context.Context, in *s3.PutObjectInput, opts ...func(*s3.Options)) (*s3.PutObjectOutput, error)
}

// NewS3Store answers a Store keeping images in an S3 bucket (the media bucket, with
// prefix "media/"), sent with CacheControl. Exists uses HeadObject, so the caller's role
// needs s3:ListBucket on the bucket as well as s3:GetObject: without it S3 answers a
// missing key with 403, not 404, and Exists fails.
func NewS3Store(client *s3.Client, bucket, prefix string) Store {
	return s3Store{client: client, bucket: bucket, prefix: prefix}
}

type s3Store struct {
	client         s3API
	bucket, prefix string
}

func (s s3Store) Exists(ctx context.Context, key string) (bool, error) {
	_, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.prefix + key)})
	if err == nil {
		return true, nil
	}
	if notFound(err) {
		return false, nil
	}
	return false, fmt.Errorf("media: head s3://%s/%s%s: %w", s.bucket, s.prefix, key, err)
}

func notFound(err error) bool {
	var nf *types.NotFound
	var nsk *types.NoSuchKey
	if errors.As(err, &nf) || errors.As(err, &nsk) {
		return true
	}
	var api smithy.APIError
	if errors.As(err, &api) && (api.ErrorCode() == "NotFound" || api.ErrorCode() == "NoSuchKey") {
		return true
	}
	var re *smithyhttp.ResponseError
	return errors.As(err, &re) && re.HTTPStatusCode() == http.StatusNotFound
}

func (s s3Store) Put(ctx context.Context, key string, data []byte, contentType string) error {
	_, err := s.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:        aws.String(s.bucket),
		Key:           aws.String(s.prefix + key),
		Body:          bytes.NewReader(data),
		ContentLength: aws.Int64(int64(len(data))),
		ContentType:   aws.String(contentType),
		CacheControl:  aws.String(CacheControl),
	})
	if err != nil {
		return fmt.Errorf("media: put s3://%s/%s%s: %w", s.bucket, s.prefix, key, err)
	}
	return nil
}
