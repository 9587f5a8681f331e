/** What the device flags are computed from. */
export interface DeviceInput {
  userAgent: string;
  width: number;
  height: number;
  touch: boolean;
}

/** The two device flags of SPEC.md section 4; the menu layout follows them. */
export interface DeviceFlags {
  mobile: boolean;
  tablet: boolean;
}

/** Mobile width limit (inclusive), tablet minimum width (exclusive) and aspect limit. */
export const MOBILE_MAX_WIDTH = 500;
export const TABLET_MIN_WIDTH = 481;
export const TABLET_MAX_ASPECT = 1.3;

const mobileUA = /Mobi|Android.+Mobile|iPhone|iPod|IEMobile|BlackBerry|Opera Mini|webOS/i;

/** mobile: the user agent looks mobile or the viewport is 500 px wide or less.
 * tablet: the aspect ratio (width / height) is under 1.3, the width over 481 px, and
 * touch is available. */
export function deviceFlags({ userAgent, width, height, touch }: DeviceInput): DeviceFlags {
  const aspect = height > 0 ? width / height : Infinity;
  return {
    mobile: mobileUA.test(userAgent) || width <= MOBILE_MAX_WIDTH,
    tablet: aspect < TABLET_MAX_ASPECT && width > TABLET_MIN_WIDTH && touch,
  };
}

/** Reads the flags' inputs from the browser. */
export function readDevice(w: Window): DeviceInput {
  return {
    userAgent: w.navigator.userAgent,
    width: w.innerWidth,
    height: w.innerHeight,
    touch: w.navigator.maxTouchPoints > 0 || 'ontouchstart' in w,
  };
}
