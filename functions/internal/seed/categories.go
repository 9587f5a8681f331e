package seed

// family says how products of a category are named, priced and packed.
type family struct {
	minPrice, maxPrice int64 // unit price band in pence ex VAT
	packs              []int // pack sizes a product may come in
	blurb              string
}

var families = map[string]family{
	"card":       {45, 115, []int{6, 6, 12}, "Supplied with matching envelopes, individually cello-wrapped and printed in the UK on FSC-certified board."},
	"value":      {19, 19, []int{12, 24}, "A dependable value line at 19p a card, with envelopes, cello-wrapped and ready for the spinner."},
	"boxed":      {180, 450, []int{6, 12}, "Each box holds ten cards with envelopes; proceeds from every box support UK charities."},
	"wrap":       {55, 160, []int{10, 25}, "Rolled tight and sleeved for display, with a barcode on every unit."},
	"bag":        {45, 190, []int{6, 12}, "Sturdy laminated board with rope handles and a matching gift tag."},
	"party":      {60, 320, []int{6, 12}, "Packed for retail with a hanging header card and barcode."},
	"balloon":    {35, 320, []int{5, 10, 25}, "Supplied flat in retail bags; helium quality and safety tested to EN71."},
	"gift":       {150, 900, []int{3, 4, 6}, "Gift boxed and ready to sell, with a barcode on every unit."},
	"stationery": {40, 420, []int{6, 12}, "Shrink-wrapped for display with a barcode on every unit."},
}

// catDef is one seed category: its menu group, outlet range and product family.
type catDef struct {
	id       int
	name     string
	group    string
	rng      string
	family   string
	weight   int
	noun     string
	subjects []string
}

var styles = []string{
	"Gold Foil", "Watercolour", "Hand-Drawn", "Pastel", "Glitter", "Letterpress", "Embossed",
	"Retro", "Botanical", "Contemporary", "Vintage", "Pop Art", "Linocut", "Photographic", "Die-Cut",
}

// categoryDefs is every category the header menu names, grouped as the spec lists them.
var categoryDefs = []catDef{
	// Greeting card occasions
	{101, "Female Birthday Cards", GroupOccasions, "wholesale_greeting_cards", "card", 14, "Birthday Card", []string{"Peony", "Prosecco", "Handbag", "Butterfly", "Cupcake", "Rose Garden", "Sunflower", "Cocktail", "Flamingo", "Tea Party", "Floral Wreath", "Hot Air Balloon"}},
	{102, "Male Birthday Cards", GroupOccasions, "wholesale_greeting_cards", "card", 12, "Birthday Card", []string{"Vintage Car", "Golf Course", "Fishing Boat", "Craft Beer", "Football", "Motorbike", "Whisky", "Mountain Bike", "Steam Train", "Barbecue", "Guitar", "Shed"}},
	{103, "Humorous Birthday Cards", GroupOccasions, "wholesale_greeting_cards", "card", 10, "Birthday Card", []string{"Grumpy Cat", "Another Year Wiser", "Cake Disaster", "Dancing Llama", "Sarcastic Sloth", "Over the Hill", "Pun-tastic Penguin", "Wine O'Clock", "Silly Sausage Dog", "Party Animal"}},
	{104, "Blank Cards", GroupOccasions, "wholesale_greeting_cards", "card", 10, "Blank Card", []string{"Seascape", "Hedgerow", "Lake District", "Barn Owl", "Wild Meadow", "Lighthouse", "Bluebell Wood", "Harbour", "Robin", "Country Cottage"}},
	{105, "Friend Cards", GroupOccasions, "wholesale_greeting_cards", "card", 6, "Friend Birthday Card", []string{"Best Friends", "Bestie", "Coffee Date", "Gin and Tonic", "Partners in Crime", "Sunshine", "Friendship Bracelet", "Two Peas"}},
	{106, "Relations Cards", GroupOccasions, "wholesale_greeting_cards", "card", 12, "Birthday Card", []string{"Mum", "Dad", "Nan", "Grandad", "Sister", "Brother", "Daughter", "Son", "Auntie", "Uncle", "Niece", "Nephew", "Wife", "Husband"}},
	{107, "Age Cards", GroupOccasions, "wholesale_greeting_cards", "card", 10, "Birthday Card", []string{"Age 1", "Age 2", "Age 3", "Age 4", "Age 5", "Age 6", "Age 7", "Age 8", "Age 16", "Age 18", "Age 21", "Age 30", "Age 40", "Age 50", "Age 60", "Age 70", "Age 80", "Age 90", "Age 100"}},
	{108, "Birth Cards", GroupOccasions, "wholesale_greeting_cards", "card", 6, "New Baby Card", []string{"Baby Boy", "Baby Girl", "Twins", "Stork", "Teddy Bear", "Little Star", "Rocking Horse", "Baby Feet"}},
	{109, "Sympathy Cards", GroupOccasions, "wholesale_greeting_cards", "card", 6, "Sympathy Card", []string{"White Lily", "Forget-Me-Not", "Dove", "Thinking of You", "Gentle Rose", "Sunset", "Pebbles", "Autumn Leaves"}},
	{110, "Wedding Cards", GroupOccasions, "wholesale_greeting_cards", "card", 6, "Wedding Card", []string{"Mr and Mrs", "Mr and Mr", "Mrs and Mrs", "Wedding Cake", "Champagne Toast", "Wedding Bells", "Horseshoe", "Confetti"}},
	{111, "Occasions Cards", GroupOccasions, "wholesale_greeting_cards", "card", 8, "Card", []string{"Anniversary", "Congratulations", "Get Well Soon", "Good Luck", "New Home", "Retirement", "Thank You", "Exam Success", "Engagement", "Driving Test", "Leaving", "Christening"}},
	// Value cards
	{120, "Value Cards", GroupValue, "wholesale_greeting_cards", "value", 10, "Value Card", []string{"Open Birthday", "Mum Birthday", "Dad Birthday", "Age Badge", "Kids Birthday", "Thank You", "Get Well", "Sympathy", "Congratulations", "Anniversary"}},
	// Publisher ranges
	{131, "Hartwell Press", GroupPublishers, "wholesale_greeting_cards", "card", 6, "Card", []string{"Art Gallery", "Heritage Print", "Museum Collection", "Old Masters", "Maritime"}},
	{132, "Inkpot Studio", GroupPublishers, "wholesale_greeting_cards", "card", 6, "Card", []string{"Doodle", "Typographic", "Neon", "Brush Lettering", "Confetti Pop"}},
	{133, "Meadow Lane Cards", GroupPublishers, "wholesale_greeting_cards", "card", 6, "Card", []string{"Country Garden", "Wildflower", "Hare", "Fox", "Hedgehog"}},
	{134, "Cardinal Prints", GroupPublishers, "wholesale_greeting_cards", "card", 6, "Card", []string{"Bold Geometric", "Mid-Century", "Art Deco", "Bauhaus", "Terrazzo"}},
	{135, "Blue Heron Art", GroupPublishers, "wholesale_greeting_cards", "card", 6, "Card", []string{"Heron", "Kingfisher", "Estuary", "Tidal Flats", "Reed Beds"}},
	// Christmas cards and products
	{201, "Boxed Christmas Cards", GroupChristmas, "wholesale-christmas", "boxed", 10, "Christmas Card Box", []string{"Robin", "Nativity", "Snowy Village", "Reindeer", "Holly Wreath", "Penguin", "Santa", "Stag"}},
	{202, "Single Christmas Cards", GroupChristmas, "wholesale-christmas", "card", 12, "Christmas Card", []string{"Robin", "Snowman", "Christmas Tree", "Angel", "Bauble", "Star of Wonder", "Gingerbread", "Polar Bear", "Mistletoe", "Winter Fox"}},
	{203, "Christmas Relations Cards", GroupChristmas, "wholesale-christmas", "card", 8, "Christmas Card", []string{"Mum and Dad", "Grandparents", "Son and Partner", "Daughter and Family", "Brother", "Sister", "Nan", "Grandad", "Wife", "Husband"}},
	{204, "Charity Christmas Packs", GroupChristmas, "wholesale-christmas", "boxed", 6, "Charity Card Pack", []string{"Festive Cheer", "Peace on Earth", "Winter Walk", "Starlit Night", "Carol Singers"}},
	{205, "Christmas Gift Wrap", GroupChristmas, "wholesale-christmas", "wrap", 6, "Christmas Gift Wrap", []string{"Candy Cane", "Nordic", "Tartan", "Santa Stripe", "Snowflake", "Kraft Holly"}},
	{206, "Christmas Crackers", GroupChristmas, "wholesale-christmas", "party", 5, "Christmas Crackers", []string{"Luxury Gold", "Family Fun", "Eco Kraft", "Tartan", "Red and Silver"}},
	{207, "Christmas Tags and Labels", GroupChristmas, "wholesale-christmas", "stationery", 4, "Gift Tags", []string{"Glitter", "Kraft", "Foiled Star", "Festive Animals"}},
	{208, "Christmas Decorations", GroupChristmas, "wholesale-christmas", "gift", 5, "Decoration", []string{"Felt Robin", "Glass Bauble", "Wooden Star", "Tinsel Garland", "Hanging Angel"}},
	// Seasonal
	{301, "Diaries", GroupSeasonal, "wholesale_stationery", "stationery", 4, "Diary", []string{"Week to View", "Day a Page", "Pocket", "Academic", "Slim Line"}},
	{302, "Halloween", GroupSeasonal, "wholesale_partyware", "party", 5, "Halloween Pack", []string{"Pumpkin", "Spooky Ghost", "Bat", "Witch Hat", "Skeleton", "Haunted House"}},
	{303, "Valentines", GroupSeasonal, "wholesale_greeting_cards", "card", 6, "Valentine's Card", []string{"One I Love", "Heart", "Love Birds", "Red Rose", "Soulmate", "Cheeky"}},
	{304, "Mothers Day", GroupSeasonal, "wholesale_greeting_cards", "card", 6, "Mother's Day Card", []string{"Mum", "Mam", "Nan", "Tulips", "Teacup", "Special Mum"}},
	{305, "Easter", GroupSeasonal, "wholesale_greeting_cards", "card", 5, "Easter Card", []string{"Bunny", "Chicks", "Easter Egg", "Daffodil", "Spring Lamb"}},
	{306, "Fathers Day", GroupSeasonal, "wholesale_greeting_cards", "card", 6, "Father's Day Card", []string{"Dad", "Daddy", "Grandad", "Best Dad", "Tools", "Classic Car"}},
	// Gift wrap
	{401, "Gift Wrap Rolls", GroupGiftWrap, "wholesale_gift_wrap", "wrap", 6, "Gift Wrap Roll", []string{"Kraft", "Polka Dot", "Birthday Balloons", "Floral", "Stripe", "Marble", "Metallic"}},
	{402, "Gift Wrap Sheets", GroupGiftWrap, "wholesale_gift_wrap", "wrap", 5, "Gift Wrap Sheet", []string{"Kraft", "Botanical", "Gingham", "Confetti", "Rainbow"}},
	{403, "Gift Bags", GroupGiftWrap, "wholesale_gift_wrap", "bag", 7, "Gift Bag", []string{"Bottle", "Large", "Medium", "Small", "Jumbo", "Kids"}},
	{404, "Tissue Paper", GroupGiftWrap, "wholesale_gift_wrap", "wrap", 3, "Tissue Paper", []string{"White", "Pastel Mix", "Black", "Gold", "Rainbow"}},
	{405, "Ribbons and Bows", GroupGiftWrap, "wholesale_gift_wrap", "wrap", 3, "Ribbon", []string{"Satin", "Curling", "Organza", "Grosgrain", "Pull Bow"}},
	// Party
	{501, "Party Tableware", GroupParty, "wholesale_partyware", "party", 6, "Tableware Pack", []string{"Paper Plates", "Paper Cups", "Napkins", "Table Cover", "Straws"}},
	{502, "Party Banners", GroupParty, "wholesale_partyware", "party", 4, "Banner", []string{"Happy Birthday", "Congratulations", "Age Bunting", "Retirement", "Welcome Home"}},
	{503, "Party Hats and Favours", GroupParty, "wholesale_partyware", "party", 4, "Party Favours", []string{"Crowns", "Blowouts", "Party Bags", "Masks", "Bubbles"}},
	{504, "Candles", GroupParty, "wholesale_partyware", "party", 4, "Candles", []string{"Number", "Sparkler", "Pastel", "Metallic", "Trick"}},
	{505, "Cake Decorations", GroupParty, "wholesale_partyware", "party", 3, "Cake Topper", []string{"Happy Birthday", "Glitter Star", "Age", "Wedding"}},
	// Balloons
	{601, "Foil Balloons", GroupBalloons, "wholesale_balloons", "balloon", 7, "Foil Balloon", []string{"Heart", "Star", "Happy Birthday", "Unicorn", "Dinosaur", "New Baby", "Congratulations"}},
	{602, "Latex Balloons", GroupBalloons, "wholesale_balloons", "balloon", 5, "Latex Balloons", []string{"Pastel", "Metallic", "Chrome", "Confetti", "Printed Birthday"}},
	{603, "Age Balloons", GroupBalloons, "wholesale_balloons", "balloon", 5, "Age Balloon", []string{"Age 1", "Age 16", "Age 18", "Age 21", "Age 30", "Age 40", "Age 50", "Age 60"}},
	{604, "Helium Accessories", GroupBalloons, "wholesale_balloons", "balloon", 3, "Balloon Accessory", []string{"Weights", "Curling Ribbon", "Hi-Float", "Valves", "Display Sticks"}},
	// Social stationery
	{701, "Invitations", GroupSocial, "wholesale_stationery", "stationery", 4, "Invitations", []string{"Birthday Party", "Wedding", "Christening", "Baby Shower", "Engagement"}},
	{702, "Thank You Cards", GroupSocial, "wholesale_stationery", "stationery", 4, "Thank You Notes", []string{"Floral", "Kraft", "Kids", "Gold Script"}},
	{703, "Notelets", GroupSocial, "wholesale_stationery", "stationery", 3, "Notelets", []string{"Garden Birds", "Cottage", "Seaside", "Botanical"}},
	// Giftware
	{801, "Mugs", GroupGiftware, "wholesale_giftware", "gift", 5, "Mug", []string{"Best Mum", "Best Dad", "Teacher", "Grandad", "Nan", "Friend"}},
	{802, "Keyrings", GroupGiftware, "wholesale_giftware", "gift", 4, "Keyring", []string{"Initial", "Heart", "Lucky Horseshoe", "Dad", "Mum"}},
	{803, "Photo Frames", GroupGiftware, "wholesale_giftware", "gift", 4, "Photo Frame", []string{"Family", "Friends", "New Baby", "Wedding"}},
	{804, "Novelty Gifts", GroupGiftware, "wholesale_giftware", "gift", 4, "Novelty Gift", []string{"Desk Toy", "Socks", "Coaster Set", "Fridge Magnet", "Bottle Opener"}},
	{805, "Plush", GroupGiftware, "wholesale_giftware", "gift", 3, "Plush Toy", []string{"Teddy", "Bunny", "Unicorn", "Puppy"}},
	// Stationery
	{901, "Notebooks", GroupStationery, "wholesale_stationery", "stationery", 5, "Notebook", []string{"A5 Lined", "A6 Pocket", "Dotted", "Hardback", "Spiral"}},
	{902, "Pens and Pencils", GroupStationery, "wholesale_stationery", "stationery", 4, "Pen Set", []string{"Gel", "Ballpoint", "Pencil", "Highlighter", "Fineliner"}},
	{903, "Writing Sets", GroupStationery, "wholesale_stationery", "stationery", 3, "Writing Set", []string{"Floral", "Classic Cream", "Blue Basildon", "Kids"}},
	{904, "Envelopes", GroupStationery, "wholesale_stationery", "stationery", 3, "Envelopes", []string{"C6 White", "C6 Kraft", "C5 Coloured", "DL Manilla"}},
	// Miscellaneous
	{951, "Current Events", GroupMisc, "wholesale_greeting_cards", "card", 3, "Card", []string{"Coronation", "World Cup", "Royal Wedding", "Jubilee"}},
	{952, "Paper and Carrier Bags", GroupMisc, "wholesale_gift_wrap", "bag", 4, "Carrier Bag", []string{"Kraft Twist Handle", "White Paper", "Printed Shop", "Mini"}},
	{953, "Glassware", GroupMisc, "wholesale_giftware", "gift", 3, "Glass", []string{"Gin", "Pint", "Prosecco Flute", "Wine", "Whisky Tumbler"}},
	{954, "Keepsake Wallet Cards", GroupMisc, "wholesale_giftware", "gift", 3, "Wallet Card", []string{"Mum", "Dad", "Friend", "Guardian Angel", "Lucky Charm"}},
	{955, "Graveside Cards", GroupMisc, "wholesale_greeting_cards", "card", 3, "Graveside Card", []string{"Mum", "Dad", "Nan", "Grandad", "Loved One"}},
}
