/** The shop footer. */
export function SiteFooter() {
  return (
    <footer className="site-footer">
      <p>© 2025 TradeShop Wholesale. Trade prices shown ex VAT.</p>
    </footer>
  );
}
