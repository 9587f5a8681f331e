package testenv

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/tradeshop/functions/internal/auth"
	"github.com/tradeshop/functions/internal/store"
)

func need(t *testing.T, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if os.Getenv(k) == "" {
			t.Skipf("%s is not set: integration test needs the local stack (run scripts/test)", k)
		}
	}
}

func suffix() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Store creates a fresh table in the local store (DynamoDB Local) for this test and
// deletes it afterwards.
func Store(t *testing.T) *store.Store {
	t.Helper()
	need(t, "DYNAMODB_ENDPOINT")
	ctx := context.Background()
	cfg := store.ConfigFromEnv(os.Getenv)
	cfg.TableName = "it-" + suffix()
	st, err := store.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.EnsureTable(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.DeleteTable(context.Background()) })
	return st
}

// Verifier is the verifier the functions build from the environment (emulator mode).
func Verifier(t *testing.T) auth.Verifier {
	t.Helper()
	need(t, "FIREBASE_AUTH_EMULATOR_HOST")
	v, err := auth.New(context.Background(), auth.ConfigFromEnv(os.Getenv))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Password is every test user's password (the log tests check it never reaches a log).
const Password = "correct-horse-1"

// User is a user signed up in the Auth emulator.
type User struct {
	UID     string
	Email   string
	IDToken string
}

// NewUser signs up a new user with email and password in the Auth emulator.
func NewUser(t *testing.T) User { return NewNamedUser(t, "") }

// NewNamedUser signs up a user whose display name is name (the business name the site
// sets after sign-up), so its ID token carries the name claim.
func NewNamedUser(t *testing.T, name string) User {
	t.Helper()
	need(t, "FIREBASE_AUTH_EMULATOR_HOST")
	u, err := SignUp(name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// SignUp signs up a new user whose display name is name ("" for none) in the Auth
// emulator of FIREBASE_AUTH_EMULATOR_HOST: NewNamedUser for a command (the benches).
func SignUp(name string) (User, error) {
	email := fmt.Sprintf("buyer-%s@shop.test", suffix())
	req := map[string]any{"email": email, "password": Password, "returnSecureToken": true}
	if name != "" {
		req["displayName"] = name
	}
	body, _ := json.Marshal(req)
	url := "http://" + os.Getenv("FIREBASE_AUTH_EMULATOR_HOST") + "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=local"
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return User{}, err
	}
	defer resp.Body.Close()
	var out struct {
		LocalID string `json:"localId"`
		IDToken string `json:"idToken"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK || out.IDToken == "" {
		return User{}, fmt.Errorf("emulator sign-up: status %d err %v", resp.StatusCode, err)
	}
	return User{UID: out.LocalID, Email: email, IDToken: out.IDToken}, nil
}

// emulatorCall posts body to the emulator's Identity Toolkit path as its admin (the
// emulator takes "Bearer owner") and decodes the answer into out.
func emulatorCall(t *testing.T, path string, body map[string]any, out any) {
	t.Helper()
	if err := callEmulator(path, body, out); err != nil {
		t.Fatal(err)
	}
}

func callEmulator(path string, body map[string]any, out any) error {
	b, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", "http://"+os.Getenv("FIREBASE_AUTH_EMULATOR_HOST")+"/identitytoolkit.googleapis.com/v1/"+path+"?key=local", bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer owner")
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("emulator %s: status %d", path, resp.StatusCode)
	}
	if out != nil {
		return json.NewDecoder(resp.Body).Decode(out)
	}
	return nil
}

// VerifyEmail marks u's email verified in the emulator, as the link of the verification
// email does, and answers u signed in again: a token whose email_verified is true.
func VerifyEmail(t *testing.T, u User) User {
	t.Helper()
	need(t, "FIREBASE_AUTH_EMULATOR_HOST")
	emulatorCall(t, "accounts:update", map[string]any{"localId": u.UID, "emailVerified": true}, nil)
	var out struct {
		IDToken string `json:"idToken"`
	}
	emulatorCall(t, "accounts:signInWithPassword", map[string]any{"email": u.Email, "password": Password, "returnSecureToken": true}, &out)
	if out.IDToken == "" {
		t.Fatal("emulator sign-in: no token")
	}
	u.IDToken = out.IDToken
	return u
}

// Staff gives u the custom claim staff: true in the emulator, as scripts/staff grant
// does, and answers u signed in again: a token that carries it.
func Staff(t *testing.T, u User) User {
	t.Helper()
	need(t, "FIREBASE_AUTH_EMULATOR_HOST")
	u, err := GrantStaff(u)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// GrantStaff is Staff for a command (the benches).
func GrantStaff(u User) (User, error) {
	if err := callEmulator("accounts:update", map[string]any{"localId": u.UID, "customAttributes": `{"staff":true}`}, nil); err != nil {
		return User{}, err
	}
	var out struct {
		IDToken string `json:"idToken"`
	}
	if err := callEmulator("accounts:signInWithPassword", map[string]any{"email": u.Email, "password": Password, "returnSecureToken": true}, &out); err != nil {
		return User{}, err
	}
	if out.IDToken == "" {
		return User{}, fmt.Errorf("emulator sign-in: no token")
	}
	u.IDToken = out.IDToken
	return u, nil
}
