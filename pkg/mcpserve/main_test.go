package mcpserve

import (
	"os"
	"testing"

	"kitsoki/internal/testing/storytest"
)

func TestMain(m *testing.M) {
	removeConfig := storytest.EmptyConfigDir()
	code := m.Run()
	removeConfig()
	os.Exit(code)
}
