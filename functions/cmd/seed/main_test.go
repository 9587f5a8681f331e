package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tradeshop/functions/internal/store"
)

// The seed command as a person runs it: pointed at AWS (no DYNAMODB_ENDPOINT) or at a
// store elsewhere, it refuses before it writes anything unless -allow-aws is given.
func TestSeedRefusesAWSWithoutTheFlag(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "seed")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	media := filepath.Join(t.TempDir(), "media")
	for _, tc := range []struct {
		name, endpoint, want string
	}{
		{"no endpoint: AWS", "", "DYNAMODB_ENDPOINT is not set, so this would write the seed catalogue to AWS DynamoDB (table shop-test in eu-west-2)"},
		{"remote endpoint", "https://dynamodb.eu-west-2.amazonaws.com", "DYNAMODB_ENDPOINT https://dynamodb.eu-west-2.amazonaws.com is not a loopback address"},
		{"not a URL", "127.0.0.1:8000", `DYNAMODB_ENDPOINT "127.0.0.1:8000" is not a URL`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, "-products", "1", "-media", media)
			cmd.Env = append(withoutStoreEnv(), "TABLE_NAME=shop-test", "AWS_REGION=eu-west-2", "DYNAMODB_ENDPOINT="+tc.endpoint)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("seed ran without -allow-aws:\n%s", out)
			}
			if !strings.Contains(string(out), tc.want) || !strings.Contains(string(out), "-allow-aws") && tc.name != "not a URL" {
				t.Fatalf("output %q lacks %q and the -allow-aws hint", out, tc.want)
			}
			if _, err := os.Stat(media); !os.IsNotExist(err) {
				t.Fatalf("seed wrote images before refusing (%v)", err)
			}
		})
	}
}

func TestCheckTarget(t *testing.T) {
	for endpoint, ok := range map[string]bool{
		"http://127.0.0.1:8000": true, "http://localhost:8000": true, "http://[::1]:8000": true, "http://127.0.0.2:9": true,
		"": false, "https://dynamodb.eu-west-2.amazonaws.com": false, "http://10.0.0.5:8000": false, "http://localhost.evil.example:8000": false,
	} {
		c := storeConfig(endpoint)
		if err := checkTarget(c, false); (err == nil) != ok {
			t.Errorf("checkTarget(%q) = %v, want ok=%v", endpoint, err, ok)
		}
		if err := checkTarget(c, true); err != nil {
			t.Errorf("checkTarget(%q, allowAWS) = %v", endpoint, err)
		}
	}
}

func withoutStoreEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DYNAMODB_ENDPOINT=") && !strings.HasPrefix(kv, "TABLE_NAME=") && !strings.HasPrefix(kv, "AWS_") {
			env = append(env, kv)
		}
	}
	return env
}

func storeConfig(endpoint string) store.Config {
	return store.ConfigFromEnv(func(k string) string {
		if k == "DYNAMODB_ENDPOINT" {
			return endpoint
		}
		return ""
	})
}
