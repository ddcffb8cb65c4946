package lint

// proposalsIgnored notes a finding in an imported child's proposals: block,
// which upstream neither folds nor checks at any import depth
// (TestImportedProposalsWarn; docs/compat/fold.md).
const proposalsIgnored = "ignored in an imported child: upstream does not fold its proposals block"

// demoteChildProposal turns what was reported since mark into warnings
// when the story is an imported child; the findings lie in its proposals.
func (c *checker) demoteChildProposal(mark int) {
	if c.st.Imported() {
		c.rep.DemoteSince(mark, proposalsIgnored)
	}
}
