// Command session is the Lambda for the /api/session endpoint (see internal/api/routes.go).
package main

import "github.com/tradeshop/functions/internal/lambdarun"

func main() { lambdarun.Run("session") }
