import DevTools

BibreadDev.main()
