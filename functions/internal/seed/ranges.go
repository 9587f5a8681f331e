package seed

import "github.com/tradeshop/functions/internal/catalogue"

// Ranges are the seven outlet ranges, with the exact urlTexts of the header menu.
var Ranges = []catalogue.Range{
	{URLText: "wholesale_greeting_cards", Name: "Greeting Cards", Order: 1,
		Description: "Wholesale greeting cards for every occasion: birthdays, ages, weddings, new babies, sympathy and blank cards, sold in packs to shops."},
	{URLText: "wholesale-christmas", Name: "Christmas", Order: 2,
		Description: "Christmas cards, charity packs, crackers, tags and decorations at trade prices, ready for the season."},
	{URLText: "wholesale_gift_wrap", Name: "Gift Wrap", Order: 3,
		Description: "Gift wrap rolls and sheets, gift bags, tissue, ribbons and tags for retailers."},
	{URLText: "wholesale_partyware", Name: "Partyware", Order: 4,
		Description: "Party tableware, banners, hats, favours, candles and Halloween lines in trade packs."},
	{URLText: "wholesale_balloons", Name: "Balloons", Order: 5,
		Description: "Foil, latex and age balloons with helium accessories, packed for shops."},
	{URLText: "wholesale_giftware", Name: "Giftware", Order: 6,
		Description: "Mugs, keyrings, frames, glassware, keepsake wallet cards and novelty gifts at wholesale prices."},
	{URLText: "wholesale_stationery", Name: "Stationery", Order: 7,
		Description: "Notebooks, pens, writing sets, envelopes, diaries and social stationery for the trade."},
}

// Menu groups, in header order. Each category is listed under exactly one.
const (
	GroupOccasions  = "Greeting Card Occasions"
	GroupValue      = "Value Cards (19p each)"
	GroupPublishers = "Publisher Ranges"
	GroupChristmas  = "Christmas"
	GroupSeasonal   = "Seasonal"
	GroupGiftWrap   = "Gift Wrap"
	GroupParty      = "Party"
	GroupBalloons   = "Balloons"
	GroupSocial     = "Social Stationery"
	GroupGiftware   = "Giftware"
	GroupStationery = "Stationery"
	GroupMisc       = "Miscellaneous"
)

// Groups lists the menu groups in the order the spec's header shows them. The menu takes
// its order from the categories' (pages.Build), and categoryDefs are in this order.
var Groups = []string{
	GroupOccasions, GroupValue, GroupPublishers, GroupChristmas, GroupSeasonal, GroupGiftWrap,
	GroupParty, GroupBalloons, GroupSocial, GroupGiftware, GroupStationery, GroupMisc,
}
