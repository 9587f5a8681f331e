package csrf

import "time"

// Disabled is the Protector of a function deployed without the CSRF secret (an endpoint
// that neither checks nor issues tokens: endpoints.json "csrfSecret": false). It can wrap
// handlers, but any use of the secret (checking, issuing or sealing) panics, so an
// endpoint that needs the secret and was not given it fails loudly instead of signing
// with a secret no other function shares.
func Disabled() *Protector {
	return &Protector{now: time.Now}
}
