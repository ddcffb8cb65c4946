package lint

// inProject reports whether the absolute path p lies inside the story's
// project root, lexically and through every symlink on the way (os.Root:
// nothing outside is looked at to answer). The file checks stat only such
// paths: validate runs on strangers' pull requests, and a warning that
// differs for an existing, a missing and a directory path outside the
// project would tell them what the CI machine holds (redteam6:
// with.prompt: /home/runner/.ssh/id_rsa warned "file not found" only when
// it was not there). An outside path is reported by the rules that
// confine it (prompt-root, schema, outside-root), not by agent-file.
func (c *checker) inProject(p string) bool {
	return c.st.FileRoot().Inside(p)
}
