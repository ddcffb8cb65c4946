package cmd

// checkCallTimeout validates --call-timeout (0 = the agent layer's default).
func checkCallTimeout(d interface{ Seconds() float64 }) error {
	if d.Seconds() < 0 {
		return usagef("--call-timeout %v: must not be negative (0 keeps the default of 10m)", d)
	}
	return nil
}
