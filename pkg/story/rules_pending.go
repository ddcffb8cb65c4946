package story

func checkImports(c *checker)        {}
func checkProviders(c *checker)      {}
func checkPersonas(c *checker)       {}
func checkAgentInvokes(c *checker)   {}
func checkAgentFiles(c *checker)     {}
func checkSchemas(c *checker)        {}
func checkGrammar(c *checker)        {}
func checkExprs(c *checker)          {}
func checkValueTemplates(c *checker) {}
func checkPongo(c *checker)          {}
func checkEffectKinds(c *checker)    {}
func checkOnceBind(c *checker)       {}
func checkBareExpr(c *checker)       {}
func checkUnreachable(c *checker)    {}
func checkDecideSchema(c *checker)   {}
func checkSelection(c *checker)      {}
func checkPhases(c *checker)         {}
func checkMetaModes(c *checker)      {}
func checkDecider(c *checker)        {}
func checkRouting(c *checker)        {}
func checkInterfaces(c *checker)     {}
