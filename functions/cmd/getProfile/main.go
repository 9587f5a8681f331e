// Command getProfile is the Lambda for the /api/getProfile endpoint (see internal/api/routes.go).
package main

import "github.com/tradeshop/functions/internal/lambdarun"

func main() { lambdarun.Run("getProfile") }
