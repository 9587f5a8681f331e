import { afterEach, describe, expect, it, vi } from 'vitest';
import { REVOKE_AFTER_MS, saveFile } from './save-file';

/** A document that records the link saveFile makes and what happens to it. */
function fakeDoc() {
  const events: string[] = [];
  const link = {
    href: '',
    download: '',
    hidden: false,
    click: () => events.push(`click ${link.download} ${link.href}`),
    remove: () => events.push('remove'),
  };
  const doc = {
    createElement: (tag: string) => (tag === 'a' ? link : null),
    body: { append: () => events.push('append') },
  } as unknown as Document;
  return { doc, link, events };
}

describe('saveFile', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('clicks a hidden <a download> at an object URL of the blob, removes it, and revokes the URL later', () => {
    vi.useFakeTimers();
    const create = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:shop/1');
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const { doc, link, events } = fakeDoc();
    const blob = new Blob(['%PDF-'], { type: 'application/pdf' });
    saveFile(blob, 'INV-000042.pdf', doc);
    expect(create).toHaveBeenCalledWith(blob);
    expect(link.hidden).toBe(true);
    expect(events).toEqual(['append', 'click INV-000042.pdf blob:shop/1', 'remove']);
    expect(revoke).not.toHaveBeenCalled();
    vi.advanceTimersByTime(REVOKE_AFTER_MS);
    expect(revoke).toHaveBeenCalledWith('blob:shop/1');
  });
});
