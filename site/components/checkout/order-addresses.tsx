import type { Order } from '@/lib/checkout';

const deliveryNames: Record<string, string> = { standard: 'Standard UK mainland delivery', 'next-day': 'Next working day' };

/** Who an order is invoiced to and where it goes, with the delivery option and note. On an
 * invoice the PO reference is among the invoice's facts instead. */
export function OrderAddresses({ order: o, Heading, withPoRef }: { order: Order; Heading: 'h2' | 'h3'; withPoRef: boolean }) {
  return (
    <div className="addresses">
      {o.billing && (
        <section>
          <Heading>Invoice to</Heading>
          <p>
            {o.billing.company}, {o.billing.contact}
            <br />
            {o.billing.address.line1}
            {o.billing.address.line2 && `, ${o.billing.address.line2}`}, {o.billing.address.town} {o.billing.address.postcode}
            {o.billing.vat_number && (
              <>
                <br />
                VAT number {o.billing.vat_number}
              </>
            )}
            {withPoRef && o.billing.po_ref && (
              <>
                <br />
                Your PO {o.billing.po_ref}
              </>
            )}
          </p>
        </section>
      )}
      {o.deliver_to && (
        <section>
          <Heading>Deliver to</Heading>
          <p>
            {o.deliver_to.line1}
            {o.deliver_to.line2 && `, ${o.deliver_to.line2}`}, {o.deliver_to.town} {o.deliver_to.postcode}
            <br />
            {deliveryNames[o.delivery_option] ?? o.delivery_option}
            {o.delivery_note && (
              <>
                <br />
                {/* The note may hold line breaks (LF): shown as the buyer typed them. */}
                <span style={{ whiteSpace: 'pre-line' }}>Note: {o.delivery_note}</span>
              </>
            )}
          </p>
        </section>
      )}
    </div>
  );
}
