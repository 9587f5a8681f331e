// State the end-to-end tests prepare in the shop's store directly, where no page or API
// makes it (an invoice issued weeks ago): DynamoDB Local's own JSON API, at the run's
// DYNAMODB_ENDPOINT and TABLE_NAME (scripts/test sets both). DynamoDB Local runs with
// -sharedDb and checks no signature, so the request carries a well-formed placeholder.

/** Calls DynamoDB Local's operation (UpdateItem, GetItem, …) with input. */
async function dynamo<T>(operation: string, input: Record<string, unknown>): Promise<T> {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('DYNAMODB_ENDPOINT is not set: run the e2e tests through scripts/test');
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDB_20120810.${operation}`,
      authorization: 'AWS4-HMAC-SHA256 Credential=e2e/20260101/eu-west-2/dynamodb/aws4_request, SignedHeaders=host, Signature=00',
    },
    body: JSON.stringify({ TableName: process.env.TABLE_NAME ?? 'tradeshop', ...input }),
  });
  const body = (await res.json()) as T & { message?: string; Message?: string };
  if (!res.ok) throw new Error(`DynamoDB Local ${operation} answered ${res.status}: ${body.message ?? body.Message ?? ''}`);
  return body;
}

/** Moves the VAT invoice of buyer uid's order back to noon of the London day days before
 * today (its issue time; its terms stay): the invoice is then as overdue as one issued that
 * day, which is how the credit hold test makes an overdue account (docs/back-office.md
 * "Credit hold"). Noon, so summer time cannot move it to another London day. */
export async function backdateInvoice(uid: string, orderId: string, days: number): Promise<void> {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const at = Date.UTC(y, m - 1, d - days, 12);
  await dynamo('UpdateItem', {
    Key: { pk: { S: `USER#${uid}` }, sk: { S: `ORDER#${orderId}` } },
    UpdateExpression: 'SET #inv.#at = :at',
    ConditionExpression: 'attribute_exists(#inv)',
    ExpressionAttributeNames: { '#inv': 'invoice', '#at': 'issuedAt' },
    ExpressionAttributeValues: { ':at': { N: String(at) } },
  });
}
