import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_POSITIONS, ToastQueue } from './toast';

describe('ToastQueue', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('defaults to an error toast in the middle centre that hides after 9000 ms', () => {
    const q = new ToastQueue();
    const id = q.show({ header: 'Account Signed Out', message: 'You have logged out' });
    expect(q.list()).toEqual([
      { id, header: 'Account Signed Out', message: 'You have logged out', position: 'middle-center', style: 'error', autoHideMs: 9000 },
    ]);
    vi.advanceTimersByTime(8999);
    expect(q.list()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(q.list()).toHaveLength(0);
  });

  it('header and message are each optional', () => {
    const q = new ToastQueue();
    q.show({ message: 'only a message' });
    q.show({ header: 'only a header' });
    expect(q.list().map((t) => [t.header, t.message])).toEqual([
      [undefined, 'only a message'],
      ['only a header', undefined],
    ]);
  });

  it('the close button hides it at once and cancels its timer', () => {
    const q = new ToastQueue();
    const seen: number[] = [];
    q.subscribe((t) => seen.push(t.length));
    const id = q.show({ message: 'x' });
    q.close(id);
    expect(q.list()).toHaveLength(0);
    vi.advanceTimersByTime(10_000);
    expect(seen).toEqual([1, 0]);
  });

  it('has nine positions and groups toasts by them', () => {
    expect(TOAST_POSITIONS).toHaveLength(9);
    const q = new ToastQueue();
    for (const position of TOAST_POSITIONS) q.show({ message: position, position, style: 'success' });
    q.show({ message: 'second top-left', position: 'top-left' });
    const groups = q.byPosition();
    expect([...groups.keys()]).toEqual([...TOAST_POSITIONS]);
    expect(groups.get('top-left')?.map((t) => t.message)).toEqual(['top-left', 'second top-left']);
  });

  it('a toast with autoHideMs 0 stays until closed', () => {
    const q = new ToastQueue();
    q.show({ message: 'sticky', autoHideMs: 0 });
    vi.advanceTimersByTime(60_000);
    expect(q.list()).toHaveLength(1);
  });
});
