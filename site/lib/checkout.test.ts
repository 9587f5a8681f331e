import { describe, expect, it } from 'vitest';
import { addressProblems, emptyAddress } from './checkout';

describe('addressProblems', () => {
  it('names each missing or wrong field under the prefix the API uses', () => {
    expect(addressProblems(emptyAddress(), 'deliver_to.')).toEqual({
      'deliver_to.line1': 'Enter the first line of the address.',
      'deliver_to.town': 'Enter the town or city.',
      'deliver_to.postcode': 'Enter a UK postcode such as EX1 2AB.',
    });
    expect(addressProblems({ line1: '4 Quay Street', line2: '', town: 'Exampleton', postcode: 'NOT A CODE' }, 'address.')).toEqual({
      'address.postcode': 'Enter a UK postcode such as EX1 2AB.',
    });
  });

  it('finds nothing wrong with a whole UK address', () => {
    expect(addressProblems({ line1: '4 Quay Street', line2: '', town: 'Exampleton', postcode: 'ex1 2ab' }, 'address.')).toEqual({});
  });
});
