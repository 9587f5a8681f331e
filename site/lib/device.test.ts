import { describe, expect, it } from 'vitest';
import { deviceFlags } from './device';

const desktopUA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156 Safari/537.36';
const phoneUA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148';

describe('deviceFlags', () => {
  it.each([
    // width, height, touch, ua, mobile, tablet
    [500, 900, false, desktopUA, true, false], // 500 is still mobile
    [501, 900, false, desktopUA, false, false],
    [360, 740, true, phoneUA, true, false], // narrow touch phone: mobile, not tablet (width <= 481)
    [481, 900, true, desktopUA, true, false], // 481 is not over 481
    [482, 900, true, desktopUA, true, true], // over 481 with touch and tall: tablet (and mobile by width)
    [768, 1024, true, desktopUA, false, true], // portrait tablet
    [768, 1024, false, desktopUA, false, false], // no touch: no tablet
    [1300, 1000, true, desktopUA, false, false], // aspect exactly 1.3 is not under 1.3
    [1299, 1000, true, desktopUA, false, true], // just under 1.3
    [1440, 900, false, desktopUA, false, false],
    [1440, 900, false, phoneUA, true, false], // a mobile user agent is mobile at any width
  ])('%i×%i touch=%s', (width, height, touch, userAgent, mobile, tablet) => {
    expect(deviceFlags({ width, height, touch, userAgent })).toEqual({ mobile, tablet });
  });
});
