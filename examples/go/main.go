// Logs in, lists the banks with the bearer token, then again with an encrypted password (a JWE).
// The standard library alone: net/http, encoding/json, crypto/rsa and crypto/cipher.
package main

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// Go's trap: base64.URLEncoding pads with "=", which is not base64url as JOSE means it (the gateway answers
// 422, not encrypted). JWE parts are RawURLEncoding.
var b64url = base64.RawURLEncoding

type jwk struct{ Kid, Use, Alg, N, E string }

var client = &http.Client{Timeout: 30 * time.Second}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

// call decodes the JSON answer into out; on any failure it exits with the gateway's description_status.
func call(method, target string, body any, bearer string, out any) {
	var payload []byte
	if body != nil {
		payload, _ = json.Marshal(body)
	}
	request, err := http.NewRequest(method, target, bytes.NewReader(payload))
	if err != nil {
		fail("%s %s: %v", method, target, err)
	}
	if body != nil {
		request.Header.Set("Content-Type", "application/json")
	}
	if bearer != "" {
		request.Header.Set("Authorization", "Bearer "+bearer)
	}
	response, err := client.Do(request)
	if err != nil {
		fail("%s %s: %v", method, target, err)
	}
	defer response.Body.Close()
	if response.StatusCode != http.StatusOK {
		var problem struct{ Description string `json:"description_status"` }
		json.NewDecoder(response.Body).Decode(&problem)
		fail("%s %s: HTTP %d: %s", method, target, response.StatusCode, problem.Description)
	}
	if err := json.NewDecoder(response.Body).Decode(out); err != nil {
		fail("%s %s: %v", method, target, err)
	}
}

func encryptPassword(password string, key jwk) (string, error) {
	jti := make([]byte, 16)
	cek := make([]byte, 32)
	iv := make([]byte, 12)
	for _, buffer := range [][]byte{jti, cek, iv} {
		if _, err := rand.Read(buffer); err != nil {
			return "", err
		}
	}
	header, _ := json.Marshal(map[string]any{"alg": "RSA-OAEP-256", "enc": "A256GCM", "kid": key.Kid, "iat": time.Now().Unix(), "jti": hex.EncodeToString(jti)})
	protected := b64url.EncodeToString(header)
	n, errN := b64url.DecodeString(key.N)
	e, errE := b64url.DecodeString(key.E)
	if errN != nil || errE != nil {
		return "", fmt.Errorf("the encryption key is malformed")
	}
	public := &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}
	// RSA-OAEP-256: EncryptOAEP uses the one hash for the digest and MGF1.
	encryptedKey, err := rsa.EncryptOAEP(sha256.New(), rand.Reader, public, cek, nil)
	if err != nil {
		return "", err
	}
	block, _ := aes.NewCipher(cek)
	gcm, _ := cipher.NewGCM(block)
	sealed := gcm.Seal(nil, iv, []byte(password), []byte(protected)) // ciphertext, then the 16-byte tag
	tag := len(sealed) - gcm.Overhead()
	parts := []string{protected, b64url.EncodeToString(encryptedKey), b64url.EncodeToString(iv), b64url.EncodeToString(sealed[:tag]), b64url.EncodeToString(sealed[tag:])}
	return strings.Join(parts, "."), nil
}

func main() {
	settings := map[string]string{}
	for _, name := range []string{"GATEWAY_URL", "PROVIDER_SEGMENT", "PARTNER_LOGIN", "PARTNER_PASSWORD"} {
		value, ok := os.LookupEnv(name)
		if !ok {
			fail("set %s", name)
		}
		settings[name] = value
	}
	base, login, password := settings["GATEWAY_URL"], settings["PARTNER_LOGIN"], settings["PARTNER_PASSWORD"]
	banksURL := base + "/partner/" + settings["PROVIDER_SEGMENT"] + "/sbp/banks/"
	var banks struct{ Banks []struct{ Name, Bic string } }

	var token struct{ AccessToken string `json:"access_token"` }
	call("POST", base+"/api/v1/login/", map[string]string{"login": login, "password": password}, "", &token)
	call("POST", banksURL, nil, token.AccessToken, &banks)
	fmt.Println("banks:", len(banks.Banks))

	var jwks struct{ Keys []jwk }
	call("GET", base+"/.well-known/jwks.json", nil, "", &jwks)
	for _, key := range jwks.Keys {
		if key.Use == "enc" && key.Alg == "RSA-OAEP-256" {
			jwe, err := encryptPassword(password, key)
			if err != nil {
				fail("cannot encrypt the password: %v", err)
			}
			query := url.Values{"partnerName": {login}, "partnerPassword": {jwe}, "useAuthByCert": {"Y"}}
			banks.Banks = nil
			call("POST", banksURL+"?"+query.Encode(), nil, "", &banks)
			fmt.Println("banks:", len(banks.Banks))
			return
		}
	}
	fail("the JWKS has no RSA-OAEP-256 encryption key")
}
