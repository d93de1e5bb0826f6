import BibreadCLI

Bibread.prepare(for: CommandLine.arguments)
Bibread.main()
