// Package media checks a product picture given by staff (JPEG, PNG or WebP, from a
// folder on the command line or uploaded in the back office), makes the two square
// sizes the pages use and publishes them under names made from the picture's content.
//
// Output is lossy WebP, encoded by github.com/gen2brain/webp (libwebp compiled to
// WebAssembly and run by wazero, so the Lambdas stay CGo-free); see
// docs/catalogue-import-images.md for why and what it costs.
package media

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"

	gwebp "github.com/gen2brain/webp"
	"golang.org/x/image/draw"
	"golang.org/x/image/webp"
)

// SmallSize and LargeSize are the sides, in pixels, of the two square images the pages
// use: Small in the basket widget, grids and search; Large on the product page. They
// match seed.ImageSizes.
const SmallSize, LargeSize = 160, 640

// Limits on an accepted picture.
const (
	// MaxBytes is the largest picture file accepted (15 MB, counted as Windows does: 1 MB = 1,048,576 bytes).
	MaxBytes = 15 << 20
	// MaxPixels is the most pixels a picture may have (50 megapixels). It is checked from
	// the file's header before anything is decoded, so a small file claiming a huge
	// picture (a decompression bomb) is refused without allocating it.
	MaxPixels = 50_000_000
	// MinSide is the least width and height, in pixels, of an accepted picture.
	MinSide = 100
)

// Version is mixed into the content hash that names the published images. Change it
// whenever the output for the same source changes (sizes, format, quality, resampling,
// background), so new images get new names and caches never serve the old ones.
const Version = "v1"

// Quality is the lossy WebP quality of the published images.
const Quality = 80

// ContentType is the type of the published images.
const ContentType = "image/webp"

// Images are the site paths of a product's two pictures, e.g.
// "/media/products/3f2a9c…-s.webp" and "/media/products/3f2a9c…-l.webp".
type Images struct{ Small, Large string }

// Problem is a picture that cannot be used. Msg reads on from the picture's name, e.g.
// "is 40 × 40 pixels; the least is 100 pixels on each side": the caller makes the whole
// sentence ("robin.jpg is ….", or the catalogue import's "The picture "robin.jpg" is ….").
type Problem struct{ Msg string }

func (p *Problem) Error() string { return p.Msg }

func problem(format string, args ...any) error { return &Problem{Msg: fmt.Sprintf(format, args...)} }

// Keys answers the store keys of the two images made from a source file's bytes:
// "products/" + 20 hex digits of sha256(data + Version) + "-s.webp" / "-l.webp".
func Keys(data []byte) (small, large string) {
	h := sha256.New()
	h.Write(data)
	h.Write([]byte(Version))
	name := "products/" + hex.EncodeToString(h.Sum(nil))[:20]
	return name + "-s.webp", name + "-l.webp"
}

// Process checks data (the picture file called name; name is only used in messages that
// are not for staff), makes the two sizes and publishes them to st unless they are there
// already, and answers their site paths. A picture that cannot be used gives a *Problem;
// any other error is the store's or the encoder's. Process may be called from several
// goroutines at once.
func Process(ctx context.Context, st Store, name string, data []byte) (Images, error) {
	f, err := check(data)
	if err != nil {
		return Images{}, err
	}
	small, large := Keys(data)
	imgs := Images{Small: "/media/" + small, Large: "/media/" + large}
	haveSmall, err := st.Exists(ctx, small)
	if err != nil {
		return Images{}, fmt.Errorf("media: %s: %w", name, err)
	}
	haveLarge, err := st.Exists(ctx, large)
	if err != nil {
		return Images{}, fmt.Errorf("media: %s: %w", name, err)
	}
	if haveSmall && haveLarge {
		return imgs, nil
	}
	src, err := f.decode(data)
	if err != nil {
		return Images{}, err
	}
	l, s := render(src, f.orientation)
	if !haveSmall {
		if err := publish(ctx, st, small, s); err != nil {
			return Images{}, fmt.Errorf("media: %s: %w", name, err)
		}
	}
	if !haveLarge {
		if err := publish(ctx, st, large, l); err != nil {
			return Images{}, fmt.Errorf("media: %s: %w", name, err)
		}
	}
	return imgs, nil
}

func publish(ctx context.Context, st Store, key string, m *image.RGBA) error {
	b, err := encode(m)
	if err != nil {
		return err
	}
	return st.Put(ctx, key, b, ContentType)
}

// encode writes m as lossy WebP. The encoder runs libwebp in wazero; a panic there (it
// panics if the WebAssembly module cannot be compiled) becomes an error.
func encode(m *image.RGBA) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("webp encoder: %v", r)
		}
	}()
	var buf bytes.Buffer
	if err := gwebp.Encode(&buf, m, gwebp.Options{Quality: Quality, Method: gwebp.DefaultMethod}); err != nil {
		return nil, fmt.Errorf("webp encoder: %w", err)
	}
	return buf.Bytes(), nil
}

// format is an accepted picture type, found by content.
type format struct {
	name        string // for staff: "JPEG", "PNG", "WebP"
	orientation int    // EXIF orientation of a JPEG, 1 (as stored) otherwise
	decodeFn    func(io.Reader) (image.Image, error)
	configFn    func(io.Reader) (image.Config, error)
}

func (f format) decode(data []byte) (m image.Image, err error) {
	defer func() {
		if r := recover(); r != nil { // a decoder bug must not take the import down
			m, err = nil, f.unreadable(fmt.Errorf("%v", r))
		}
	}()
	m, err = f.decodeFn(bytes.NewReader(data))
	if err != nil {
		return nil, f.unreadable(err)
	}
	return m, nil
}

func (f format) unreadable(err error) error {
	return problem("could not be read as a %s picture: %s", f.name, reason(err))
}

// reason makes a decoder's error short and plain.
func reason(err error) string {
	s := err.Error()
	// image/jpeg says "short Huffman data", image/png "not enough pixel data" when the
	// file ends inside the picture's data.
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		strings.HasSuffix(s, "short Huffman data") || strings.HasSuffix(s, "not enough pixel data") {
		return "the file is cut short"
	}
	for _, p := range []string{"invalid JPEG format: ", "unsupported JPEG feature: ", "png: ", "webp: ", "riff: "} {
		s = strings.TrimPrefix(s, p)
	}
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// check refuses a picture that cannot be used, doing only cheap work: the byte count,
// the type by content and the header's dimensions.
func check(data []byte) (format, error) {
	if len(data) == 0 {
		return format{}, problem("is empty")
	}
	if len(data) > MaxBytes {
		return format{}, problem("is %s MB; the most is %d MB", ceil1(float64(len(data))/(1<<20)), MaxBytes>>20)
	}
	var f format
	switch http.DetectContentType(data) {
	case "image/jpeg":
		f = format{name: "JPEG", orientation: jpegOrientation(data), decodeFn: jpeg.Decode, configFn: jpeg.DecodeConfig}
	case "image/png":
		f = format{name: "PNG", orientation: 1, decodeFn: png.Decode, configFn: png.DecodeConfig}
	case "image/webp":
		f = format{name: "WebP", orientation: 1, decodeFn: webp.Decode, configFn: webp.DecodeConfig}
		// VP8X header: flags byte 20, animation bit 1.
		if len(data) > 20 && string(data[12:16]) == "VP8X" && data[20]&0x02 != 0 {
			return format{}, problem("is an animated WebP picture; only still pictures can be used")
		}
	default:
		if what := looksLike(data); what != "" {
			return format{}, problem("is not a JPEG, PNG or WebP picture (it looks like %s)", what)
		}
		return format{}, problem("is not a JPEG, PNG or WebP picture")
	}
	cfg, err := f.configFn(bytes.NewReader(data))
	if err != nil {
		return format{}, f.unreadable(err)
	}
	w, h := cfg.Width, cfg.Height
	if px := int64(w) * int64(h); px > MaxPixels {
		return format{}, problem("is %d × %d pixels (%s megapixels); the most is %d megapixels",
			w, h, ceil1(float64(px)/1e6), MaxPixels/1_000_000)
	}
	if w < MinSide || h < MinSide {
		return format{}, problem("is %d × %d pixels; the least is %d pixels on each side", w, h, MinSide)
	}
	return f, nil
}

// ceil1 formats x rounded up to one decimal, without a trailing ".0", so a value just
// over a limit never prints as the limit itself.
func ceil1(x float64) string {
	return strconv.FormatFloat(math.Ceil(x*10)/10, 'f', -1, 64)
}

// looksLike names, for staff, what a file that is not an accepted picture seems to be,
// or answers "" when it cannot tell.
func looksLike(data []byte) string {
	head := data[:min(len(data), 512)]
	if len(head) >= 12 && string(head[4:8]) == "ftyp" {
		switch string(head[8:12]) {
		case "heic", "heix", "hevc", "heim", "heis", "mif1", "msf1":
			return "a HEIC picture, as iPhones take; save it as JPEG"
		case "avif", "avis":
			return "an AVIF picture"
		}
	}
	if bytes.HasPrefix(head, []byte("II*\x00")) || bytes.HasPrefix(head, []byte("MM\x00*")) {
		return "a TIFF picture"
	}
	if bytes.Contains(bytes.ToLower(head), []byte("<svg")) {
		return "an SVG drawing"
	}
	ct := http.DetectContentType(data)
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	switch ct {
	case "application/pdf":
		return "a PDF document"
	case "image/gif":
		return "a GIF picture"
	case "image/bmp":
		return "a BMP picture"
	case "image/x-icon":
		return "an icon"
	case "application/zip":
		return "a ZIP archive or an Office document"
	case "application/x-gzip", "application/x-rar-compressed":
		return "a compressed archive"
	case "text/html":
		return "a web page"
	case "text/xml":
		return "an XML file"
	case "text/plain":
		return "a text file"
	case "application/postscript":
		return "a PostScript file"
	}
	switch {
	case strings.HasPrefix(ct, "video/"):
		return "a video"
	case strings.HasPrefix(ct, "audio/"):
		return "a sound file"
	case strings.HasPrefix(ct, "font/"):
		return "a font"
	}
	return ""
}

// render fits src inside a LargeSize square (keeping its shape, centred, on white, so
// transparent areas become white), turns it the way its EXIF orientation says, and makes
// the SmallSize square from that. A source smaller than LargeSize is scaled up.
func render(src image.Image, orientation int) (large, small *image.RGBA) {
	large = image.NewRGBA(image.Rect(0, 0, LargeSize, LargeSize))
	draw.Draw(large, large.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	// Turning a square about its centre keeps a centred rectangle centred, so the
	// source can be fitted as stored and the square turned afterwards.
	draw.CatmullRom.Scale(large, fit(src.Bounds(), LargeSize), src, src.Bounds(), draw.Over, nil)
	large = orient(large, orientation)
	small = image.NewRGBA(image.Rect(0, 0, SmallSize, SmallSize))
	draw.CatmullRom.Scale(small, small.Bounds(), large, large.Bounds(), draw.Src, nil)
	return large, small
}

// fit answers the rectangle, centred in a size×size square, that b fills when scaled to
// fit inside it.
func fit(b image.Rectangle, size int) image.Rectangle {
	w, h := b.Dx(), b.Dy()
	dw, dh := size, size
	if w >= h {
		dh = max(1, int(math.Round(float64(h)*float64(size)/float64(w))))
	} else {
		dw = max(1, int(math.Round(float64(w)*float64(size)/float64(h))))
	}
	x, y := (size-dw)/2, (size-dh)/2
	return image.Rect(x, y, x+dw, y+dh)
}
