package media

import (
	"encoding/binary"
	"image"
)

// jpegOrientation answers the EXIF orientation (1 to 8) of a JPEG file, or 1 when it has
// none or it cannot be read: phones store pictures as the sensor saw them and say in
// EXIF how to turn them. Only the markers before the image data are looked at.
func jpegOrientation(data []byte) int {
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return 1
	}
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xFF {
			return 1
		}
		marker := data[i+1]
		if marker == 0xFF { // fill byte
			i++
			continue
		}
		if marker == 0xDA || marker == 0xD9 { // start of scan, end of image
			return 1
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if n < 2 || i+2+n > len(data) {
			return 1
		}
		seg := data[i+4 : i+2+n]
		if marker == 0xE1 && len(seg) >= 6 && string(seg[:6]) == "Exif\x00\x00" {
			if o := exifOrientation(seg[6:]); o != 0 {
				return o
			}
		}
		i += 2 + n
	}
	return 1
}

// exifOrientation reads tag 0x0112 from IFD0 of a TIFF structure, answering 0 if absent.
func exifOrientation(t []byte) int {
	if len(t) < 8 {
		return 0
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	if bo.Uint16(t[2:]) != 42 {
		return 0
	}
	ifd := int(bo.Uint32(t[4:]))
	if ifd < 8 || ifd+2 > len(t) {
		return 0
	}
	count := int(bo.Uint16(t[ifd:]))
	for k := range count {
		e := ifd + 2 + 12*k
		if e+12 > len(t) {
			return 0
		}
		if bo.Uint16(t[e:]) == 0x0112 && bo.Uint16(t[e+2:]) == 3 { // SHORT
			if o := int(bo.Uint16(t[e+8:])); o >= 1 && o <= 8 {
				return o
			}
			return 0
		}
	}
	return 0
}

// orient turns the square m the way EXIF orientation o says the stored picture is to be
// shown, answering m itself for orientation 1 (or an unknown value).
func orient(m *image.RGBA, o int) *image.RGBA {
	if o < 2 || o > 8 {
		return m
	}
	s := m.Bounds().Dx() // square, origin 0,0
	out := image.NewRGBA(m.Bounds())
	for y := range s {
		for x := range s {
			// (sx, sy) is the stored pixel shown at (x, y).
			var sx, sy int
			switch o {
			case 2: // mirrored left to right
				sx, sy = s-1-x, y
			case 3: // turned half way
				sx, sy = s-1-x, s-1-y
			case 4: // mirrored top to bottom
				sx, sy = x, s-1-y
			case 5: // transposed
				sx, sy = y, x
			case 6: // to be turned a quarter clockwise
				sx, sy = y, s-1-x
			case 7: // transversed
				sx, sy = s-1-y, s-1-x
			case 8: // to be turned a quarter anticlockwise
				sx, sy = s-1-y, x
			}
			si, di := m.PixOffset(sx, sy), out.PixOffset(x, y)
			copy(out.Pix[di:di+4], m.Pix[si:si+4])
		}
	}
	return out
}
