import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { StagingNotice } from './staging-notice';

describe('StagingNotice', () => {
  it('shows only when the version setting is staging', () => {
    expect(renderToStaticMarkup(<StagingNotice version="staging" />)).toContain('Staging site');
    expect(renderToStaticMarkup(<StagingNotice version="production" />)).toBe('');
    expect(renderToStaticMarkup(<StagingNotice version="local" />)).toBe('');
  });
});
