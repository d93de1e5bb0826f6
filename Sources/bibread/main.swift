import BibreadCLI

Bibread.main()
