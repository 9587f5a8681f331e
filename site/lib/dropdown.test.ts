import { describe, expect, it } from 'vitest';
import { nudgeIntoView } from './dropdown';

describe('nudgeIntoView', () => {
  it('leaves a panel that fits where it is', () => {
    expect(nudgeIntoView(100, 324, 1024)).toBe(0);
    expect(nudgeIntoView(8, 1016, 1024)).toBe(0); // exactly the room between the margins
  });

  it('moves a panel running off the right edge back inside, keeping the margin', () => {
    // The Help panel at 1024 px: it opened under its summary at 884 px, 224 px wide.
    expect(nudgeIntoView(884, 1108, 1024)).toBe(-92);
    expect(884 - 92 + 224).toBe(1016);
  });

  it('moves a panel starting left of the screen to the right', () => {
    expect(nudgeIntoView(-170, 54, 1024)).toBe(178);
  });

  it('lines a panel wider than the room up with the left margin', () => {
    expect(nudgeIntoView(300, 1500, 1024)).toBe(-292);
    expect(nudgeIntoView(-50, 1100, 1024)).toBe(58);
  });

  it('takes another margin', () => {
    expect(nudgeIntoView(900, 1024, 1024, 16)).toBe(-16);
    expect(nudgeIntoView(0, 100, 1024, 0)).toBe(0);
  });
});
