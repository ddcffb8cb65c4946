package lint

import (
	"slices"
	"testing"
)

// shellEnvReads finds the names a shell expands, and only those.
func TestShellEnvReads(t *testing.T) {
	for line, want := range map[string][]string{
		`echo $A_TOKEN "$B" ${C} ${D:-x} ${#E} ${!F}`: {"A_TOKEN", "B", "C", "D", "E", "F"},
		`echo '$A' \$B "\$C" $'$D\'$E' $1 $$ $@`:      nil,
		`echo "it's $X" 'q'$Y`:                        {"X", "Y"},
		`echo '$unterminated $Z`:                      nil,
		`x=$A_KEY9;y=${B_KEY}z`:                       {"A_KEY9", "B_KEY"},
		`$`:                                           nil,
		`${`:                                          nil,
		`printf '%s' "$'$Q'"`:                         {"Q"},
	} {
		var got []string
		for _, r := range shellEnvReads(line) {
			got = append(got, r.name)
			if line[r.off] != '$' {
				t.Errorf("%q: %s at %d, not a $", line, r.name, r.off)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", line, got, want)
		}
	}
}

func TestSecretLooking(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_TOKEN": true, "AWS_SECRET_ACCESS_KEY": true, "npm_token": true, "APP_SECRET": true,
		"DOCKER_SECRETS": true, "DB_PASSWORD": true, "PGPASSWORD": true, "MYSQL_PASSWD": true, "TOKEN": true,
		"HOME": false, "KEYBOARD": false, "TOKENIZER": false, "PATH": false, "KITSOKI_APP_DIR": false, "SSH_AUTH_SOCK": false,
	} {
		if got := secretLooking(name); got != want {
			t.Errorf("secretLooking(%q) = %v", name, got)
		}
	}
}
