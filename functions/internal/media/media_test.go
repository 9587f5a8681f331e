package media

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	gwebp "github.com/gen2brain/webp"
	"golang.org/x/image/webp"
)

// countingStore wraps a Store and counts its calls.
type countingStore struct {
	Store
	exists, puts atomic.Int64
	mu           sync.Mutex
	types        map[string]string // key -> content type put
}

func newCounting(t *testing.T) (*countingStore, string) {
	dir := t.TempDir()
	return &countingStore{Store: NewDirStore(dir), types: map[string]string{}}, dir
}

func (c *countingStore) Exists(ctx context.Context, key string) (bool, error) {
	c.exists.Add(1)
	return c.Store.Exists(ctx, key)
}

func (c *countingStore) Put(ctx context.Context, key string, data []byte, ct string) error {
	c.puts.Add(1)
	c.mu.Lock()
	c.types[key] = ct
	c.mu.Unlock()
	return c.Store.Put(ctx, key, data, ct)
}

// picture is a w×h picture with a pattern of colours that are nowhere near white.
func picture(w, h int, seed uint8) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.SetRGBA(x, y, color.RGBA{uint8(x/4) ^ seed, 40 + uint8(y/8)%100, 90, 255})
		}
	}
	return m
}

func solid(w, h int, c color.Color) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.Set(x, y, c)
		}
	}
	return m
}

func encJPEG(t testing.TB, m image.Image) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encPNG(t testing.TB, m image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encWebP(t testing.TB, m image.Image, lossless bool) []byte {
	var b bytes.Buffer
	if err := gwebp.Encode(&b, m, gwebp.Options{Quality: 90, Lossless: lossless}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// halfClear is a PNG-able picture whose left half is fully transparent and right half red.
func halfClear(w, h int) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := w / 2; x < w; x++ {
			m.SetNRGBA(x, y, color.NRGBA{220, 20, 20, 255})
		}
	}
	return m
}

// published reads back the image at a site path from the store's folder.
func published(t *testing.T, dir, sitePath string) (image.Image, []byte) {
	t.Helper()
	key, ok := strings.CutPrefix(sitePath, "/media/")
	if !ok {
		t.Fatalf("site path %q is not under /media/", sitePath)
	}
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(key)))
	if err != nil {
		t.Fatal(err)
	}
	m, err := webp.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", sitePath, err)
	}
	return m, b
}

func near(c color.Color, want color.RGBA) bool {
	r, g, b, _ := c.RGBA()
	d := func(a uint32, w uint8) bool { v := int(a>>8) - int(w); return v > -24 && v < 24 }
	return d(r, want.R) && d(g, want.G) && d(b, want.B)
}

var white = color.RGBA{255, 255, 255, 255}

func TestProcessFormats(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"photo.jpg", encJPEG(t, picture(900, 700, 0))},
		{"clear.png", encPNG(t, halfClear(500, 300))},
		{"photo.webp", encWebP(t, picture(800, 600, 7), false)},
		{"clear.webp", encWebP(t, halfClear(300, 300), true)},
		{"small.png", encPNG(t, picture(300, 200, 3))}, // scaled up to 640
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, dir := newCounting(t)
			imgs, err := Process(ctx, st, tc.name, tc.data)
			if err != nil {
				t.Fatal(err)
			}
			small, large := Keys(tc.data)
			if imgs.Small != "/media/"+small || imgs.Large != "/media/"+large ||
				!strings.HasPrefix(small, "products/") || !strings.HasSuffix(small, "-s.webp") || !strings.HasSuffix(large, "-l.webp") ||
				len(strings.TrimSuffix(strings.TrimPrefix(small, "products/"), "-s.webp")) != 20 {
				t.Fatalf("images %+v, keys %q %q", imgs, small, large)
			}
			for path, size := range map[string]int{imgs.Small: SmallSize, imgs.Large: LargeSize} {
				m, b := published(t, dir, path)
				if got := m.Bounds(); got != image.Rect(0, 0, size, size) {
					t.Errorf("%s: bounds %v, want %d square", path, got, size)
				}
				if ct := http.DetectContentType(b); ct != "image/webp" {
					t.Errorf("%s: content %s", path, ct)
				}
				if ct := st.types[strings.TrimPrefix(path, "/media/")]; ct != "image/webp" {
					t.Errorf("%s: put as %q", path, ct)
				}
			}
			if n := st.puts.Load(); n != 2 {
				t.Fatalf("%d puts, want 2", n)
			}
			again, err := Process(ctx, st, tc.name, tc.data)
			if err != nil || again != imgs {
				t.Fatalf("again: %+v, %v; want %+v", again, err, imgs)
			}
			if n := st.puts.Load(); n != 2 {
				t.Fatalf("processing the same picture again put %d more images", n-2)
			}
		})
	}
}

func TestNamesFollowContent(t *testing.T) {
	a := encPNG(t, picture(200, 200, 1))
	b := encPNG(t, picture(200, 200, 2))
	as, al := Keys(a)
	as2, al2 := Keys(bytes.Clone(a))
	bs, bl := Keys(b)
	if as != as2 || al != al2 {
		t.Errorf("same bytes, different names: %s %s", as, as2)
	}
	if as == bs || al == bl {
		t.Errorf("different pictures, same names: %s", as)
	}
	if strings.TrimSuffix(as, "-s.webp") != strings.TrimSuffix(al, "-l.webp") {
		t.Errorf("the two sizes do not share a stem: %s %s", as, al)
	}
}

func TestTransparentBecomesWhite(t *testing.T) {
	st, dir := newCounting(t)
	imgs, err := Process(context.Background(), st, "clear.png", encPNG(t, halfClear(400, 400)))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := published(t, dir, imgs.Large)
	if c := m.At(100, 320); !near(c, white) {
		t.Errorf("transparent half is %v, want white", c)
	}
	if c := m.At(540, 320); !near(c, color.RGBA{220, 20, 20, 255}) {
		t.Errorf("opaque half is %v, want red", c)
	}
}

func TestCentred(t *testing.T) {
	blue := color.RGBA{20, 40, 160, 255}
	for _, tc := range []struct {
		name           string
		w, h           int
		white, picture []image.Point // in the large image
	}{
		// 800×400 fills 640×320 at y 160..480.
		{"landscape", 800, 400, []image.Point{{3, 3}, {320, 40}, {320, 600}, {636, 636}}, []image.Point{{320, 320}, {10, 320}, {630, 200}}},
		// 400×800 fills 320×640 at x 160..480.
		{"portrait", 400, 800, []image.Point{{3, 3}, {40, 320}, {600, 320}, {636, 636}}, []image.Point{{320, 320}, {320, 10}, {200, 630}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, dir := newCounting(t)
			imgs, err := Process(context.Background(), st, tc.name+".jpg", encJPEG(t, solid(tc.w, tc.h, blue)))
			if err != nil {
				t.Fatal(err)
			}
			m, _ := published(t, dir, imgs.Large)
			for _, p := range tc.white {
				if c := m.At(p.X, p.Y); !near(c, white) {
					t.Errorf("%v is %v, want white", p, c)
				}
			}
			for _, p := range tc.picture {
				if c := m.At(p.X, p.Y); !near(c, blue) {
					t.Errorf("%v is %v, want the picture's blue", p, c)
				}
			}
			s, _ := published(t, dir, imgs.Small)
			if c := s.At(1, 1); !near(c, white) {
				t.Errorf("small corner is %v, want white", c)
			}
			if c := s.At(80, 80); !near(c, blue) {
				t.Errorf("small centre is %v, want blue", c)
			}
		})
	}
}

// withOrientation puts an EXIF APP1 segment with the given orientation after a JPEG's SOI.
func withOrientation(j []byte, o uint16) []byte {
	var tiff bytes.Buffer
	tiff.WriteString("MM\x00\x2a")
	binary.Write(&tiff, binary.BigEndian, uint32(8)) // IFD0 offset
	binary.Write(&tiff, binary.BigEndian, uint16(1)) // one entry
	binary.Write(&tiff, binary.BigEndian, uint16(0x0112))
	binary.Write(&tiff, binary.BigEndian, uint16(3)) // SHORT
	binary.Write(&tiff, binary.BigEndian, uint32(1)) // count
	binary.Write(&tiff, binary.BigEndian, o)         // value, left-justified
	binary.Write(&tiff, binary.BigEndian, uint16(0))
	binary.Write(&tiff, binary.BigEndian, uint32(0)) // no next IFD
	seg := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	out := []byte{0xFF, 0xD8, 0xFF, 0xE1, byte((len(seg) + 2) >> 8), byte(len(seg) + 2)}
	out = append(out, seg...)
	return append(out, j[2:]...)
}

func TestEXIFOrientation(t *testing.T) {
	red, blue := color.RGBA{220, 20, 20, 255}, color.RGBA{20, 40, 160, 255}
	// Stored landscape, left half red, right half blue.
	m := solid(800, 400, blue)
	for y := range 400 {
		for x := range 400 {
			m.SetRGBA(x, y, red)
		}
	}
	j := encJPEG(t, m)
	for _, tc := range []struct {
		o        uint16
		at       map[image.Point]color.RGBA
		orientat int
	}{
		{1, map[image.Point]color.RGBA{{320, 40}: white, {160, 320}: red, {480, 320}: blue}, 1},
		// Turned a quarter clockwise: shown portrait, the stored left (red) on top.
		{6, map[image.Point]color.RGBA{{40, 320}: white, {600, 320}: white, {320, 160}: red, {320, 480}: blue}, 6},
		// Turned a quarter anticlockwise: the stored left (red) at the bottom.
		{8, map[image.Point]color.RGBA{{40, 320}: white, {320, 160}: blue, {320, 480}: red}, 8},
		// Turned half way: red on the right.
		{3, map[image.Point]color.RGBA{{320, 40}: white, {160, 320}: blue, {480, 320}: red}, 3},
	} {
		t.Run(fmt.Sprint(tc.o), func(t *testing.T) {
			data := withOrientation(j, tc.o)
			if got := jpegOrientation(data); got != tc.orientat {
				t.Fatalf("orientation read as %d, want %d", got, tc.orientat)
			}
			st, dir := newCounting(t)
			imgs, err := Process(context.Background(), st, "turned.jpg", data)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := published(t, dir, imgs.Large)
			for p, want := range tc.at {
				if c := out.At(p.X, p.Y); !near(c, want) {
					t.Errorf("%v is %v, want %v", p, c, want)
				}
			}
		})
	}
	if got := jpegOrientation(j); got != 1 {
		t.Errorf("a JPEG without EXIF reads as orientation %d", got)
	}
}

func TestOrientAllEight(t *testing.T) {
	// A 2×2 square, stored as a b / c d; what each orientation shows, row by row.
	a, b, c, d := color.RGBA{1, 0, 0, 255}, color.RGBA{2, 0, 0, 255}, color.RGBA{3, 0, 0, 255}, color.RGBA{4, 0, 0, 255}
	m := image.NewRGBA(image.Rect(0, 0, 2, 2))
	m.SetRGBA(0, 0, a)
	m.SetRGBA(1, 0, b)
	m.SetRGBA(0, 1, c)
	m.SetRGBA(1, 1, d)
	want := map[int][4]color.RGBA{
		1: {a, b, c, d}, 2: {b, a, d, c}, 3: {d, c, b, a}, 4: {c, d, a, b},
		5: {a, c, b, d}, 6: {c, a, d, b}, 7: {d, b, c, a}, 8: {b, d, a, c},
	}
	for o, w := range want {
		out := orient(m, o)
		got := [4]color.RGBA{out.RGBAAt(0, 0), out.RGBAAt(1, 0), out.RGBAAt(0, 1), out.RGBAAt(1, 1)}
		if got != w {
			t.Errorf("orientation %d: %v, want %v", o, got, w)
		}
	}
}

// pngHeader is a PNG signature and IHDR chunk claiming a w×h RGBA picture, and nothing more.
func pngHeader(w, h uint32) []byte {
	ihdr := make([]byte, 0, 17)
	ihdr = append(ihdr, "IHDR"...)
	ihdr = binary.BigEndian.AppendUint32(ihdr, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 6, 0, 0, 0) // 8-bit RGBA, no interlace
	out := []byte("\x89PNG\r\n\x1a\n")
	out = binary.BigEndian.AppendUint32(out, 13)
	out = append(out, ihdr...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(ihdr))
}

func TestRefusals(t *testing.T) {
	j := encJPEG(t, picture(600, 400, 0))
	tooBig := make([]byte, MaxBytes+1)
	copy(tooBig, j)
	animated := []byte("RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x12\x00\x00\x00\x3f\x01\x00\x3f\x01\x00")
	heic := append([]byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"), make([]byte, 64)...)
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty.jpg", nil, "is empty"},
		{"invoice.jpg", []byte("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"), "is not a JPEG, PNG or WebP picture (it looks like a PDF document)"},
		{"notes.png", []byte("Red mug, 350 ml\nBlue mug, 350 ml\n"), "is not a JPEG, PNG or WebP picture (it looks like a text file)"},
		{"anim.gif", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), "is not a JPEG, PNG or WebP picture (it looks like a GIF picture)"},
		{"IMG_0001.jpg", heic, "is not a JPEG, PNG or WebP picture (it looks like a HEIC picture, as iPhones take; save it as JPEG)"},
		{"blob.jpg", []byte{0, 1, 2, 3, 4, 5, 0xfe, 0xfd}, "is not a JPEG, PNG or WebP picture"},
		{"huge.jpg", tooBig, "is 15.1 MB; the most is 15 MB"},
		{"bomb.png", pngHeader(12000, 9000), "is 12000 × 9000 pixels (108 megapixels); the most is 50 megapixels"},
		{"bomb2.png", pngHeader(100000, 100000), "is 100000 × 100000 pixels (10000 megapixels); the most is 50 megapixels"},
		{"just-over.png", pngHeader(10000, 5001), "is 10000 × 5001 pixels (50.1 megapixels); the most is 50 megapixels"},
		{"tiny.png", encPNG(t, picture(40, 40, 0)), "is 40 × 40 pixels; the least is 100 pixels on each side"},
		{"strip.jpg", encJPEG(t, picture(1000, 80, 0)), "is 1000 × 80 pixels; the least is 100 pixels on each side"},
		{"cut.jpg", j[:len(j)/2], "could not be read as a JPEG picture: the file is cut short"},
		{"cut.png", encPNG(t, picture(300, 300, 0))[:400], "could not be read as a PNG picture: the file is cut short"},
		{"header-only.png", pngHeader(300, 300), "could not be read as a PNG picture: the file is cut short"},
		{"anim.webp", animated, "is an animated WebP picture; only still pictures can be used"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := newCounting(t)
			_, err := Process(context.Background(), st, tc.name, tc.data)
			var p *Problem
			if !errors.As(err, &p) {
				t.Fatalf("error %v (%T), want a *Problem", err, err)
			}
			if p.Msg != tc.want || err.Error() != tc.want {
				t.Errorf("message %q,\nwant    %q", p.Msg, tc.want)
			}
			if strings.Contains(p.Msg, tc.name) {
				t.Errorf("message %q names the file", p.Msg)
			}
			if n := st.puts.Load(); n != 0 {
				t.Errorf("%d images published for a refused picture", n)
			}
		})
	}
}

func TestBombRefusedWithoutAllocating(t *testing.T) {
	st := &countingStore{Store: NewDirStore(t.TempDir()), types: map[string]string{}}
	data := pngHeader(60000, 60000) // 14.4 GB as RGBA
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Process(context.Background(), st, "bomb.png", data)
	runtime.ReadMemStats(&after)
	var p *Problem
	if !errors.As(err, &p) {
		t.Fatalf("error %v, want a *Problem", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("refusing a bomb allocated %d bytes", n)
	}
	if st.exists.Load() != 0 {
		t.Errorf("the store was asked about a refused picture")
	}
}

func TestConcurrent(t *testing.T) {
	st, dir := newCounting(t)
	pics := [][]byte{encJPEG(t, picture(700, 500, 1)), encPNG(t, picture(300, 500, 2))}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i := range 4 {
		wg.Go(func() {
			if _, err := Process(context.Background(), st, "p", pics[i%len(pics)]); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, p := range pics {
		s, l := Keys(p)
		published(t, dir, "/media/"+s)
		published(t, dir, "/media/"+l)
	}
}

func TestDirStore(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "media") // made by the first Put
	st := NewDirStore(root)
	key := "products/0123456789abcdef0123-s.webp"
	if ok, err := st.Exists(ctx, key); ok || err != nil {
		t.Fatalf("exists before put: %v, %v", ok, err)
	}
	for _, content := range []string{"first", "second"} {
		if err := st.Put(ctx, key, []byte(content), ContentType); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(root, "products", "0123456789abcdef0123-s.webp"))
		if err != nil || string(b) != content {
			t.Fatalf("file holds %q, %v; want %q", b, err, content)
		}
	}
	if ok, err := st.Exists(ctx, key); !ok || err != nil {
		t.Fatalf("exists after put: %v, %v", ok, err)
	}
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(key)))
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v; want 0644 so a web server can read it", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "products"))
	if len(entries) != 1 {
		t.Errorf("products/ holds %d entries (temporary files left behind?)", len(entries))
	}
	if ok, err := st.Exists(ctx, "products"); ok || err != nil {
		t.Errorf("a folder counts as an image: %v, %v", ok, err)
	}
	for _, bad := range []string{"../escape.webp", "/abs.webp", "", "a/../../b"} {
		if err := st.Put(ctx, bad, []byte("x"), ContentType); err == nil {
			t.Errorf("put %q was allowed", bad)
		}
	}
	if err := filepath.WalkDir(filepath.Dir(root), func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", p)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// fakeS3 answers HeadObject from a map and records PutObject calls.
type fakeS3 struct {
	mu      sync.Mutex
	objects map[string]*s3.PutObjectInput
	headErr error
}

func (f *fakeS3) HeadObject(_ context.Context, in *s3.HeadObjectInput, _ ...func(*s3.Options)) (*s3.HeadObjectOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.headErr != nil {
		return nil, f.headErr
	}
	if _, ok := f.objects[*in.Bucket+"/"+*in.Key]; ok {
		return &s3.HeadObjectOutput{}, nil
	}
	return nil, &types.NotFound{}
}

func (f *fakeS3) PutObject(_ context.Context, in *s3.PutObjectInput, _ ...func(*s3.Options)) (*s3.PutObjectOutput, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.objects[*in.Bucket+"/"+*in.Key] = in
	return &s3.PutObjectOutput{}, nil
}

func TestS3Store(t *testing.T) {
	var _ Store = NewS3Store(s3.New(s3.Options{Region: "eu-west-1"}), "media-bucket", "media/") // builds; makes no call
	ctx := context.Background()
	fake := &fakeS3{objects: map[string]*s3.PutObjectInput{}}
	st := s3Store{client: fake, bucket: "media-bucket", prefix: "media/"}
	data := encJPEG(t, picture(400, 300, 9))
	imgs, err := Process(ctx, st, "p.jpg", data)
	if err != nil {
		t.Fatal(err)
	}
	small, large := Keys(data)
	for _, k := range []string{small, large} {
		in, ok := fake.objects["media-bucket/media/"+k]
		if !ok {
			t.Fatalf("%s not put; have %v", k, fake.objects)
		}
		if *in.ContentType != "image/webp" || *in.CacheControl != "public, max-age=31536000, immutable" {
			t.Errorf("%s: content type %q, cache control %q", k, *in.ContentType, *in.CacheControl)
		}
		b, _ := io.ReadAll(in.Body)
		if *in.ContentLength != int64(len(b)) || http.DetectContentType(b) != "image/webp" {
			t.Errorf("%s: length %d, body %d bytes of %s", k, *in.ContentLength, len(b), http.DetectContentType(b))
		}
	}
	if imgs.Small != "/media/"+small {
		t.Errorf("site path %s", imgs.Small)
	}
	if ok, err := st.Exists(ctx, small); !ok || err != nil {
		t.Errorf("exists: %v, %v", ok, err)
	}
	if ok, err := st.Exists(ctx, "products/none-s.webp"); ok || err != nil {
		t.Errorf("missing key: %v, %v", ok, err)
	}
	fake.headErr = errors.New("AccessDenied")
	if _, err := st.Exists(ctx, small); err == nil {
		t.Error("a failing HeadObject was taken for an answer")
	}
	if _, err := Process(ctx, st, "p.jpg", data); err == nil || errors.As(err, new(*Problem)) {
		t.Errorf("a store failure gave %v, want a plain error", err)
	}
}

// photo is a w×h picture with gradients and noise, so it has a photo's detail.
func photo(w, h int) *image.RGBA {
	m := picture(w, h, 5)
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < len(m.Pix); i += 4 {
		for c := range 3 {
			m.Pix[i+c] = uint8(min(255, max(0, int(m.Pix[i+c])+r.IntN(41)-20)))
		}
	}
	return m
}

// BenchmarkProcess makes both sizes from one 2000×1500 JPEG photo (the store never has them).
func BenchmarkProcess(b *testing.B) {
	data := encJPEG(b, photo(2000, 1500))
	ctx := context.Background()
	if _, err := encode(image.NewRGBA(image.Rect(0, 0, 8, 8))); err != nil { // compile the encoder outside the timing
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Process(ctx, discard{}, "bench.jpg", data); err != nil {
			b.Fatal(err)
		}
	}
}

type discard struct{}

func (discard) Exists(context.Context, string) (bool, error)      { return false, nil }
func (discard) Put(context.Context, string, []byte, string) error { return nil }
